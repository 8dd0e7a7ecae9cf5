import { registerSchema, validationMessages, normaliseEmail, newPasswordSchema } from './validation';
import { canAccess, rolesOf } from './access';
import { referenceKey } from './references';

describe('registration rules (spec 01 §5)', () => {
  const valid = {
    name: 'Thandi',
    email: 'thandi@example.co.za',
    password: 'Karoo-sunset-7',
    confirmPassword: 'Karoo-sunset-7',
  };

  it('accepts a valid registration', () => {
    expect(validationMessages(registerSchema, valid)).toEqual([]);
  });

  it('gives every spec message at once', () => {
    expect(
      validationMessages(registerSchema, {
        name: '',
        email: 'nope',
        password: 'short',
        confirmPassword: 'x',
      }),
    ).toEqual([
      'Name may not be empty.',
      'Email must be a valid email address.',
      'Password must be between 8-30 characters long.',
      'Confirm Password must be equal to Password.',
    ]);
  });

  it('refuses passwords longer than 30 and the most common ones', () => {
    const long = 'a'.repeat(31);
    expect(validationMessages(newPasswordSchema, { password: long, confirmPassword: long })).toEqual([
      'Password must be between 8-30 characters long.',
    ]);
    expect(
      validationMessages(newPasswordSchema, { password: 'Password1', confirmPassword: 'Password1' })[0],
    ).toMatch(/too common/);
  });

  it('lower-cases e-mail addresses', () => {
    expect(normaliseEmail('  Thandi@Example.CO.ZA ')).toBe('thandi@example.co.za');
  });
});

describe('access', () => {
  it('derives roles from flags and checks them', () => {
    const operator = {
      roles: rolesOf({ isAdmin: false, ratesEditor: false, saviOperator: true, saviQC: false }),
    };
    expect(operator.roles).toEqual(['authenticated', 'saviOperator']);
    expect(canAccess(operator, ['admin', 'saviOperator'])).toBe(true);
    expect(canAccess(operator, ['admin'])).toBe(false);
    expect(canAccess(null, ['authenticated'])).toBe(false);
    expect(canAccess(null, ['anonymous'])).toBe(true);
  });

  it('makes reference keys from labels', () => {
    expect(referenceKey('Policy Number')).toBe('POLICY_NUMBER');
    expect(referenceKey('Claim no. 2')).toBe('CLAIM_NO___');
  });
});
