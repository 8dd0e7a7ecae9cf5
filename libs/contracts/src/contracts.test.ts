import { Value } from '@sinclair/typebox/value';
import { API, LoginBody, MenuParams, RemotesManifest, SessionUser } from './index';

const user: SessionUser = {
  _id: 'u1',
  name: 'Sipho Ndlovu',
  email: 'sipho@example.co.za',
  authenticated: true,
  isAdmin: false,
  group: {
    _id: 'g1',
    name: 'Karoo Mutual',
    code: 'KMI',
    doubleVolumePercent: 15,
    professionalFeePercentage: 12.5,
    includeVAT: true,
    includeProfessionalFee: true,
  },
  groupID: 'g1',
  groupName: 'Karoo Mutual',
  active: true,
  avsServiceUrl: '',
  includeIds: false,
  includeAll: false,
  ratesEditor: false,
  saviOperator: false,
  saviQC: false,
  claimsUser: false,
  roles: ['authenticated'],
  services: ['savi'],
  groupDoubleVolumePercent: 15,
  groupIncludeProfessionalFee: true,
  groupProfessionalFeePercentage: 12.5,
  groupIncludeVAT: true,
};

describe('contracts', () => {
  it('accepts a full session user and refuses one missing the session group values', () => {
    expect(Value.Check(SessionUser, user)).toBe(true);
    const { groupIncludeVAT: _dropped, ...partial } = user;
    expect(Value.Check(SessionUser, partial)).toBe(false);
  });

  it('bounds login input so oversized payloads never reach the password hasher', () => {
    expect(Value.Check(LoginBody, { email: 'a@b.co.za', password: 'x'.repeat(200) })).toBe(true);
    expect(Value.Check(LoginBody, { email: 'a@b.co.za', password: 'x'.repeat(201) })).toBe(false);
  });

  it('only lets safe menu names through', () => {
    expect(Value.Check(MenuParams, { name: 'header' })).toBe(true);
    expect(Value.Check(MenuParams, { name: '../etc' })).toBe(false);
  });

  it('describes remotes.json', () => {
    expect(
      Value.Check(RemotesManifest, {
        remotes: [
          {
            name: 'servicesAdmin',
            entry: '/remotes/servicesAdmin/mf-manifest.json',
            routes: ['/services/admin'],
          },
        ],
      }),
    ).toBe(true);
    expect(Value.Check(RemotesManifest, { remotes: [{ name: 'x' }] })).toBe(false);
  });

  it('encodes path parameters', () => {
    expect(API.resetByToken('a/b')).toBe('/api/v1.0/reset/a%2Fb');
    expect(API.menu('header')).toBe('/admin/menu/header');
  });
});
