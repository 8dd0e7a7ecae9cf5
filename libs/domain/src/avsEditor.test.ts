import {
  acceptDisabled,
  ADDRESS_QUALITY,
  canValidateParcel,
  cantLocateResolvable,
  detachDisabled,
  houseNumberProblem,
  investigateDisabled,
  normaliseHouseNumber,
  numberValue,
  officialDisabled,
  padCode,
  QUALITY_OPTIONS,
  qualityCode,
  unAddressableDisabled,
  unitProblem,
  validatedDataQuality,
} from './avsEditor';

describe('spec 03 §5: address quality options', () => {
  it('lists CNF, EST, DDS, VR, SV in that order with DDS 40, VR 50, SV 60 and CNF 25', () => {
    expect(QUALITY_OPTIONS.map((option) => option.code)).toEqual(['CNF', 'EST', 'DDS', 'VR', 'SV']);
    expect(ADDRESS_QUALITY).toMatchObject({ CNF: 25, DDS: 40, VR: 50, SV: 60 });
  });

  it.each([
    [-90, 'CNF'],
    [0, 'CNF'],
    [20, 'CNF'],
    [25, 'CNF'],
    [26, 'EST'],
    [30, 'EST'],
    [39, 'EST'],
    [40, 'DDS'],
    [49, 'DDS'],
    [50, 'VR'],
    [59, 'VR'],
    [60, 'SV'],
    [99, 'SV'],
  ])('quality %d shows as %s', (quality, code) => {
    expect(qualityCode(quality)).toBe(code);
  });

  it('shows each option as its own code', () => {
    for (const option of QUALITY_OPTIONS) expect(qualityCode(option.value)).toBe(option.code);
  });
});

describe('spec 03 §5: Accept is disabled when quality is already 25 or more', () => {
  it.each([
    [-10, false],
    [0, false],
    [24, false],
    [24.9, false],
    [25, true],
    [26, true],
    [40, true],
    [60, true],
  ])('quality %d → disabled %s', (quality, disabled) => {
    expect(acceptDisabled(quality)).toBe(disabled);
  });
});

describe('spec 03 §5: Investigate is disabled when parcel type is 90 or quality is -10', () => {
  it.each([
    [1, 0, false],
    [89, -9, false],
    [91, -11, false],
    [100, -90, false],
    [90, 0, true],
    [90, -10, true],
    [1, -10, true],
    [5, -10, true],
  ])('type %d, quality %d → disabled %s', (parcelTypeId, dataQualityId, disabled) => {
    expect(investigateDisabled({ parcelTypeId, dataQualityId })).toBe(disabled);
  });
});

describe('spec 03 §5: Un-Addressable is disabled when type is 100 or quality is -90', () => {
  it.each([
    [1, 0, false],
    [99, -89, false],
    [101, -91, false],
    [90, -10, false],
    [100, 0, true],
    [100, -90, true],
    [1, -90, true],
  ])('type %d, quality %d → disabled %s', (parcelTypeId, dataQualityId, disabled) => {
    expect(unAddressableDisabled({ parcelTypeId, dataQualityId })).toBe(disabled);
  });
});

describe('the other popup buttons', () => {
  it('offers Mark OFA only for an address not yet official', () => {
    expect(officialDisabled({ official: false })).toBe(false);
    expect(officialDisabled({ official: true })).toBe(true);
  });

  it('offers Detach only for a POI attached to an address or an estate', () => {
    expect(detachDisabled({ addressId: '1', parentId: null })).toBe(false);
    expect(detachDisabled({ addressId: null, parentId: '2' })).toBe(false);
    expect(detachDisabled({ addressId: null, parentId: null })).toBe(true);
  });
});

describe("spec 03 §2: 'Validate Parcel' for e-mails starting with a configured prefix", () => {
  const prefixes = ['gis.', 'validator@'];
  it.each([
    ['gis.thandi@portal.test', true],
    ['GIS.Thandi@Portal.test', true],
    ['  gis.x@portal.test ', true],
    ['validator@portal.test', true],
    ['thandi.gis@portal.test', false],
    ['gis@portal.test', false],
    ['validators@portal.test', false],
    ['operator@portal.test', false],
  ])('%s → %s', (email, allowed) => {
    expect(canValidateParcel(email, prefixes)).toBe(allowed);
  });

  it('lets nobody in without prefixes, or with blank ones', () => {
    expect(canValidateParcel('gis.thandi@portal.test', [])).toBe(false);
    expect(canValidateParcel('gis.thandi@portal.test', ['', '  '])).toBe(false);
  });
});

describe('spec 03 §5: street code and box code padded to 4 digits', () => {
  it.each([
    ['7600', '7600'],
    ['600', '0600'],
    ['1', '0001'],
    [2, '0002'],
    [7600, '7600'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    ['12345', '12345'],
    ['N/A', 'N/A'],
  ])('%p → %p', (code, padded) => {
    expect(padCode(code)).toBe(padded);
  });
});

describe('house numbers and units', () => {
  it.each(['1', '12', '12A', '12a', '99999', ' 7 '])('takes %p', (number) => {
    expect(houseNumberProblem(number)).toBeNull();
  });

  it.each(['', '0', '012', '123456', '12AB', 'A12', '12-14', '1 2'])('refuses %p', (number) => {
    expect(houseNumberProblem(number)).toMatch(/^The street number must be/);
  });

  it('stores the letter upper case and reads the number part', () => {
    expect(normaliseHouseNumber(' 12a ')).toBe('12A');
    expect(numberValue('12A')).toBe(12);
    expect(numberValue('7')).toBe(7);
    expect(numberValue('A')).toBeNull();
  });

  it('takes a blank unit or a short code, not markup', () => {
    expect(unitProblem(undefined)).toBeNull();
    expect(unitProblem('  ')).toBeNull();
    expect(unitProblem('B 12/3')).toBeNull();
    expect(unitProblem('<b>')).not.toBeNull();
    expect(unitProblem('x'.repeat(21))).not.toBeNull();
  });
});

describe("can't-locate requests", () => {
  it.each([
    ['New', true],
    ['Query', true],
    ['Pending', true],
    ['Finalised', false],
    ['Cancelled_rejected', false],
    ['Dispatch', false],
  ])('%s resolvable: %s', (status, resolvable) => {
    expect(cantLocateResolvable(status)).toBe(resolvable);
  });

  it('validates a parcel as checked, or un-addressable as -90', () => {
    expect(validatedDataQuality(1)).toBe(1);
    expect(validatedDataQuality(100)).toBe(-90);
  });
});
