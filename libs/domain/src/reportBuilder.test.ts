import fc from 'fast-check';
import {
  AREA_UNITS,
  BOUNDARY_IMPROVEMENTS,
  BUILDING_WARNING,
  BUILDING_WARNING_MS,
  CLOSE_WINDOW_WARNING,
  CONSTRUCTION_TYPES,
  CROP_SMALLEST,
  DEFAULT_SECTION_NAME,
  DEFAULT_SUM_INSURED_TOLERANCE_PERCENT,
  EMPTY_RATE_SELECTION,
  PLEASE_SELECT_A_VALUE,
  PLEASE_SELECT_OR_TYPE,
  RATE_LEVELS,
  REPORT_BUILDER_ERROR,
  buildingArea,
  buildingNameError,
  buildingValueCents,
  buildingWarnings,
  canDeleteSection,
  changeRateLevel,
  clampCropBox,
  classWithoutTier,
  cropBoxValid,
  deleteSection,
  emptyFloor,
  feeDialogErrors,
  fitFloors,
  formatMoney,
  groupNameError,
  improvementNameError,
  improvementValueCents,
  isBuildingCount,
  isPastableImage,
  isPlaceholder,
  isUnitPrice,
  moveBuilding,
  newSectionName,
  nextMarkerNumber,
  parseAmount,
  parseExtraFieldValue,
  pricingOf,
  rateFor,
  rateTierOf,
  removeAndRenumber,
  renumberMarkers,
  reportTotals,
  roundHalfAwayFromZero,
  roundMoney,
  sectionCategory,
  sectionPopupErrors,
  sumInsuredCheck,
  toCents,
  type RateSelection,
  type RateTable,
  type ReportBuilding,
  type ReportFloor,
  type ReportImprovement,
  type ReportMarker,
  type ReportSection,
  type ReportSections,
  type TotalsSettings,
} from './reportBuilder';

// ---------------------------------------------------------------------------------------------------------
// builders
// ---------------------------------------------------------------------------------------------------------

const marker = (number: number): ReportMarker => ({ lat: 0, lng: 0, number, draggable: true });
const floor = (size: number | null, doubleVolume = false, location = ''): ReportFloor => ({
  size,
  doubleVolume,
  location,
});
const improvement = (
  name: string,
  numberOfUnits: number | null,
  rate: ReportImprovement['rate'],
): ReportImprovement => ({
  name,
  category: 'improvements',
  type: 'paving',
  class: 'A-s',
  rate,
  numberOfUnits,
  marker: marker(1),
});
const building = (name: string, fields: Partial<ReportBuilding> = {}): ReportBuilding => ({
  name,
  improvements: [],
  category: 'buildings',
  type: 'dwelling',
  class: 'A-s',
  constructionType: 'Brick and Plaster',
  rate: 0,
  unit: 'no',
  numberOfUnits: null,
  floors: [],
  group: '',
  slope: false,
  slopePercentage: null,
  comment: '',
  ...fields,
});
const section = (name: string, fields: Partial<ReportSection> = {}): ReportSection => ({
  name,
  type: 'residential',
  includeImage: true,
  comment: '',
  buildings: [],
  improvements: [],
  groups: [],
  ...fields,
});
const withMarkers = <T extends object>(items: T[]): T[] =>
  items.map((item, i) => ({ ...item, marker: marker(i + 1) }));

// ---------------------------------------------------------------------------------------------------------
// §4.5 totals: three reports worked by hand
// ---------------------------------------------------------------------------------------------------------

describe('spec 02 §4.5: totals of reports worked by hand', () => {
  it('report 1: double volume and slope, improvements in a building and a section, extra field, fee and VAT', () => {
    const settings: TotalsSettings = {
      doubleVolumePercent: 15,
      includeProfessionalFee: true,
      professionalFeePercentage: 12,
      includeVAT: true,
      vatPercentage: 15,
    };
    const sections: ReportSections = {
      s1: section('Main', {
        buildings: [
          // area = 120 + 80 × 1.15 + 45.5 = 120 + 92 + 45.5 = 257.5; slope 5 %: 257.5 × 1.05 = 270.375 m²
          // value = 270.375 × 8 500 = 2 298 187.50
          // its improvement: 2 × 12 500 = 25 000.00
          building('House', {
            floors: [floor(120, false, 'Ground'), floor(80, true, 'First'), floor(45.5, false, 'Loft')],
            slope: true,
            slopePercentage: 5,
            rate: 8500,
            improvements: [improvement('Solar geyser', 2, 12500)],
          }),
          // 36 × 4 250.75 = 153 027.00 (slope off, so its 20 % is ignored)
          building('Garage', { floors: [floor(36)], rate: 4250.75, slopePercentage: 20 }),
        ],
        // 150 × 385.40 = 57 810.00
        improvements: [improvement('Paving', 150, 385.4)],
      }),
      // section: 2 298 187.50 + 25 000 + 153 027 + 57 810 = 2 534 024.50
      s2: section('Boundary', {
        type: 'perimeter',
        // 84.5 × 1 150 = 97 175.00; 1 × 18 999.99 = 18 999.99; section: 116 174.99
        improvements: [improvement('Boundary wall', 84.5, '1,150'), improvement('Gate', 1, 18999.99)],
      }),
    };
    // subtotal = 2 534 024.50 + 116 174.99 + 12 345.67 (extra field, included) = 2 662 545.16
    // fee = 12 % × 2 662 545.16 = 319 505.4192 → 319 505.42
    // VAT = 15 % × (2 662 545.16 + 319 505.42 = 2 982 050.58) = 447 307.587 → 447 307.59
    // grand total = 2 982 050.58 + 447 307.59 = 3 429 358.17
    const totals = reportTotals(
      sections,
      { include: true, description: 'Betterments', value: '12,345.67' },
      settings,
    );
    expect(totals.sections.s1!.buildings).toEqual([
      { area: 270.38, value: 2298187.5, improvements: 25000, total: 2323187.5 },
      { area: 36, value: 153027, improvements: 0, total: 153027 },
    ]);
    expect(totals.sections.s1!.improvements).toEqual([57810]);
    expect(totals.sections.s1!.subtotal).toBe(2534024.5);
    expect(totals.sections.s2!.improvements).toEqual([97175, 18999.99]);
    expect(totals.sections.s2!.subtotal).toBe(116174.99);
    expect(totals.extraField).toBe(12345.67);
    expect(totals.subtotal).toBe(2662545.16);
    expect(totals.professionalFee).toBe(319505.42);
    expect(totals.vat).toBe(447307.59);
    expect(totals.grandTotal).toBe(3429358.17);
    expect(totals.cents).toEqual({
      subtotal: 266254516,
      professionalFee: 31950542,
      vat: 44730759,
      grandTotal: 342935817,
    });
    expect(formatMoney(totals.grandTotal)).toBe('3,429,358.17');
    expect(formatMoney(totals.professionalFee)).toBe('319,505.42');
  });

  it('report 2: a unit-priced building, extra field excluded, no fee, VAT', () => {
    const settings: TotalsSettings = {
      doubleVolumePercent: 20,
      includeProfessionalFee: false,
      professionalFeePercentage: 10,
      includeVAT: true,
      vatPercentage: 15,
    };
    const sections: ReportSections = {
      out: section('Outbuildings', {
        type: 'outbuilding',
        buildings: [
          // area = (55.25 + 40) × 1.20 = 114.3 (both double volume); slope 7.5 %: 114.3 × 1.075 = 122.8725 m²
          // value = 122.8725 × 6 200 = 761 809.50
          building('Cottage', {
            floors: [floor(55.25, true), floor(40, true)],
            slope: true,
            slopePercentage: 7.5,
            rate: 6200,
          }),
          // priced per bay: 3 × 9 850.33 = 29 550.99 (its floor and slope are not used)
          building('Carports', {
            unit: 'bay',
            numberOfUnits: 3,
            rate: 9850.33,
            floors: [floor(54)],
            slope: true,
            slopePercentage: 10,
          }),
        ],
        // 1 × 45 000 = 45 000.00
        improvements: [improvement('Pool', 1, 45000)],
      }),
    };
    // subtotal = 761 809.50 + 29 550.99 + 45 000 = 836 360.49 (the extra field's 50 000 is not included)
    // fee = 0.00 (not included, its 10 % unused)
    // VAT = 15 % × 836 360.49 = 125 454.0735 → 125 454.07
    // grand total = 836 360.49 + 125 454.07 = 961 814.56
    const totals = reportTotals(
      sections,
      { include: false, description: 'Betterments', value: 50000 },
      settings,
    );
    expect(totals.sections.out!.buildings.map((b) => [b.area, b.value])).toEqual([
      [122.87, 761809.5],
      [0, 29550.99],
    ]);
    expect(totals.sections.out!.subtotal).toBe(836360.49);
    expect(totals.extraField).toBe(0);
    expect(totals.subtotal).toBe(836360.49);
    expect(totals.professionalFee).toBe(0);
    expect(formatMoney(totals.professionalFee)).toBe('0.00');
    expect(totals.vat).toBe(125454.07);
    expect(totals.grandTotal).toBe(961814.56);
    expect(formatMoney(totals.grandTotal)).toBe('961,814.56');
  });

  it('report 3: a typed-in rate, a half cent rounded up, blank extra field, fee without VAT', () => {
    const settings: TotalsSettings = {
      doubleVolumePercent: 25,
      includeProfessionalFee: true,
      professionalFeePercentage: 7.5,
      includeVAT: false,
      vatPercentage: 15,
    };
    const sections: ReportSections = {
      a: section('DEFAULT', {
        buildings: [
          // area = 60 + 60 × 1.25 = 135 m²; rate typed '7,777.77': 135 × 7 777.77 = 1 049 998.95
          // its improvement: 1 × 4 999.995 = 4 999.995 → 5 000.00 (half a cent, rounded away from zero)
          building('Flat', {
            floors: [floor(60), floor(60, true)],
            rate: '7,777.77',
            improvements: [improvement('Alarm', 1, 4999.995)],
          }),
          // area = 12.34 + 10 × 1.25 = 24.84; slope 10 %: 24.84 × 1.1 = 27.324 m²
          // value = 27.324 × 3 333.33 = 91 079.90892 → 91 079.91
          building('Store', {
            floors: [floor(12.34), floor(10, true)],
            slope: true,
            slopePercentage: 10,
            rate: 3333.33,
          }),
        ],
      }),
    };
    // subtotal = 1 049 998.95 + 5 000.00 + 91 079.91 + 0 (extra field blank → 0) = 1 146 078.86
    // fee = 7.5 % × 1 146 078.86 = 85 955.9145 → 85 955.91
    // VAT = 0.00 (not included)
    // grand total = 1 146 078.86 + 85 955.91 = 1 232 034.77
    const totals = reportTotals(sections, { include: true, description: 'Betterments', value: '' }, settings);
    expect(totals.sections.a!.buildings).toEqual([
      { area: 135, value: 1049998.95, improvements: 5000, total: 1054998.95 },
      { area: 27.32, value: 91079.91, improvements: 0, total: 91079.91 },
    ]);
    expect(totals.subtotal).toBe(1146078.86);
    expect(totals.professionalFee).toBe(85955.91);
    expect(totals.vat).toBe(0);
    expect(totals.grandTotal).toBe(1232034.77);
    expect(formatMoney(totals.grandTotal)).toBe('1,232,034.77');
  });

  it('an empty report is all zeros; no extra field is like an excluded one', () => {
    const settings: TotalsSettings = {
      doubleVolumePercent: 15,
      includeProfessionalFee: true,
      professionalFeePercentage: 12,
      includeVAT: true,
      vatPercentage: 15,
    };
    const totals = reportTotals({}, null, settings);
    expect([totals.subtotal, totals.professionalFee, totals.vat, totals.grandTotal]).toEqual([0, 0, 0, 0]);
  });
});

describe('spec 02 §4.5: the parts of the totals', () => {
  it('adds double volume, then the slope on the whole area', () => {
    const b = building('B', { floors: [floor(100, true)], slope: true, slopePercentage: 10 });
    // 100 × 1.15 = 115; × 1.10 = 126.5
    expect(buildingArea(b, 15)).toBeCloseTo(126.5, 10);
    expect(buildingArea({ ...b, slope: false }, 15)).toBeCloseTo(115, 10);
    expect(buildingArea(b, 0)).toBeCloseTo(110, 10);
  });

  it('counts missing or negative sizes and percentages as 0', () => {
    const b = building('B', {
      floors: [floor(null), floor(-5), floor(10)],
      slope: true,
      slopePercentage: null,
    });
    expect(buildingArea(b, -20)).toBe(10);
  });

  it('prices by area unless the unit names something else, then by units', () => {
    for (const unit of AREA_UNITS) expect(pricingOf(unit)).toBe('area');
    expect(pricingOf('M²')).toBe('area');
    expect(pricingOf(undefined)).toBe('area');
    expect(pricingOf('each')).toBe('units');
    expect(pricingOf('m')).toBe('units');
    expect(buildingValueCents(building('B', { floors: [floor(10)], rate: 100 }), 15)).toBe(100000);
    expect(
      buildingValueCents(
        building('B', { unit: 'each', numberOfUnits: 4, rate: 100, floors: [floor(10)] }),
        15,
      ),
    ).toBe(40000);
    expect(buildingValueCents(building('B', { floors: [floor(10)], rate: 'n/a' }), 15)).toBe(0);
  });

  it('values an improvement at units × rate', () => {
    expect(improvementValueCents({ numberOfUnits: 3, rate: '1,000.10' })).toBe(300030);
    expect(improvementValueCents({ numberOfUnits: null, rate: 100 })).toBe(0);
  });

  it('rounds money half away from zero without float errors', () => {
    expect(toCents(1.005)).toBe(101);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(-1.005)).toBe(-101);
    expect(roundHalfAwayFromZero(-0.4)).toBe(0);
    expect(Object.is(roundHalfAwayFromZero(-0.4), -0)).toBe(false);
    expect(roundMoney(2.675)).toBe(2.68);
  });

  it('formats en-US with 2 decimals', () => {
    expect(formatMoney(1234567.891)).toBe('1,234,567.89');
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(0.05)).toBe('0.05');
    expect(formatMoney(999.995)).toBe('1,000.00');
    expect(formatMoney(1.005)).toBe('1.01');
    expect(formatMoney(-1234.5)).toBe('-1,234.50');
    expect(formatMoney(100)).toBe('100.00');
    expect(formatMoney(1000)).toBe('1,000.00');
  });

  it('picks the rate tier by the class suffix', () => {
    expect(rateTierOf('A-s')).toBe('standard');
    expect(rateTierOf('A-i')).toBe('inbetween');
    expect(rateTierOf('A-e')).toBe('expensive');
    expect(rateTierOf('B-E')).toBe('expensive');
    expect(rateTierOf('A')).toBeNull();
    expect(rateTierOf('A-x')).toBeNull();
    expect(rateTierOf('As')).toBeNull();
    expect(classWithoutTier('A-s')).toBe('A');
  });

  it('finds a rate in the group table by category, type and class', () => {
    const rows: RateTable[] = [
      {
        category: 'buildings',
        type: 'dwelling',
        class: 'A',
        standard: 8500,
        inbetween: 10500,
        expensive: 14000,
      },
      { category: 'buildings', type: 'dwelling', class: 'B-e', standard: 1, inbetween: 2, expensive: 3 },
    ];
    const pick = (cls: string) => rateFor(rows, { category: 'Buildings', type: 'dwelling', class: cls });
    expect(pick('A-s')).toBe(8500);
    expect(pick('A-i')).toBe(10500);
    expect(pick('a-e')).toBe(14000);
    expect(pick('B-e')).toBe(3);
    expect(pick('C-s')).toBeNull();
    expect(pick('A')).toBeNull();
  });

  it('names a section category by its type', () => {
    expect(sectionCategory('residential')).toBe('Residential');
    expect(sectionCategory('main HOUSE')).toBe('Main house');
    expect(sectionCategory('Perimeter')).toBe(BOUNDARY_IMPROVEMENTS);
    expect(sectionCategory(' perimeter ')).toBe('Boundary Improvements');
    expect(sectionCategory('')).toBe('');
  });

  it('lists the ten construction types verbatim', () => {
    expect(CONSTRUCTION_TYPES).toEqual([
      'Brick and Plaster',
      'Brick and Steel Framework',
      'Facebrick',
      'Facebrick and Plaster',
      'Reinforced Concrete and Plaster',
      'Steel Frame',
      'Timber Frame',
      'Nutec',
      'Thatch, Brick & Plaster',
      'Thatch, Timber Frame',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// §5 validation
// ---------------------------------------------------------------------------------------------------------

describe('spec 02 §5: names', () => {
  const s = section('Main', {
    buildings: [building('House'), building('Garage')],
    improvements: [improvement('Pool', 1, 1)],
    groups: [{ name: 'Block A' }],
  });

  it('requires a building name, unique among the buildings and improvements, case-insensitively', () => {
    expect(buildingNameError('', s)).toBe(REPORT_BUILDER_ERROR.buildingNameRequired);
    expect(buildingNameError('   ', s)).toBe(REPORT_BUILDER_ERROR.buildingNameRequired);
    expect(buildingNameError('house', s)).toBe(REPORT_BUILDER_ERROR.buildingNameTaken);
    expect(buildingNameError(' GARAGE ', s)).toBe(REPORT_BUILDER_ERROR.buildingNameTaken);
    expect(buildingNameError('POOL', s)).toBe(REPORT_BUILDER_ERROR.buildingNameTaken);
    expect(buildingNameError('Cottage', s)).toBeNull();
    expect(buildingNameError('House', s, 0)).toBeNull();
    expect(buildingNameError('House', s, 1)).toBe(REPORT_BUILDER_ERROR.buildingNameTaken);
  });

  it('requires a group name, unique among the groups case-insensitively', () => {
    expect(groupNameError('', s)).toBe(REPORT_BUILDER_ERROR.groupNameRequired);
    expect(groupNameError('block a', s)).toBe(REPORT_BUILDER_ERROR.groupNameTaken);
    expect(groupNameError('block a', s, 0)).toBeNull();
    expect(groupNameError('Block B', s)).toBeNull();
    expect(groupNameError('House', s)).toBeNull();
  });

  it('requires a section name and type, the name unique', () => {
    const sections = { a: section('Main'), b: section('Cottage') };
    expect(sectionPopupErrors({ name: '', type: '' }, sections)).toEqual({
      name: REPORT_BUILDER_ERROR.sectionNameRequired,
      type: REPORT_BUILDER_ERROR.sectionTypeRequired,
    });
    expect(sectionPopupErrors({ name: 'MAIN', type: 'residential' }, sections)).toEqual({
      name: REPORT_BUILDER_ERROR.sectionNameTaken,
    });
    expect(sectionPopupErrors({ name: 'MAIN', type: 'residential' }, sections, 'a')).toEqual({});
    expect(sectionPopupErrors({ name: 'Shed', type: ' ' }, sections)).toEqual({
      type: REPORT_BUILDER_ERROR.sectionTypeRequired,
    });
  });

  it('requires an improvement name only', () => {
    expect(improvementNameError('')).toBe(REPORT_BUILDER_ERROR.improvementNameRequired);
    expect(improvementNameError(' ')).toBe(REPORT_BUILDER_ERROR.improvementNameRequired);
    expect(improvementNameError('Pool')).toBeNull();
  });
});

describe('spec 02 §5: building save warnings', () => {
  const complete = building('House', { floors: [floor(100)], rate: 8500 });

  it('has the spec’s texts verbatim and shows them 3 s', () => {
    expect(BUILDING_WARNING).toEqual({
      noConstructionType: 'You did not select a construction type.',
      noFloors: "You've not captured floor details",
      floorWithoutSize: 'One or more floors need a size',
      noRate: 'You did not capture a rate. This will result in a report that is inaccurate.',
      noUnitCount: 'The unit count needs to be selected',
    });
    expect(BUILDING_WARNING_MS).toBe(3000);
  });

  it('warns nothing for a complete building', () => {
    expect(buildingWarnings(complete)).toEqual([]);
  });

  it('wants a construction type only in the category buildings', () => {
    expect(buildingWarnings({ ...complete, constructionType: '' })).toEqual([
      BUILDING_WARNING.noConstructionType,
    ]);
    expect(buildingWarnings({ ...complete, category: 'Buildings', constructionType: ' ' })).toEqual([
      BUILDING_WARNING.noConstructionType,
    ]);
    expect(buildingWarnings({ ...complete, category: 'outbuildings', constructionType: '' })).toEqual([]);
  });

  it('wants floors, each with a size above 0', () => {
    expect(buildingWarnings({ ...complete, floors: [] })).toEqual([BUILDING_WARNING.noFloors]);
    expect(buildingWarnings({ ...complete, floors: [floor(100), floor(null)] })).toEqual([
      BUILDING_WARNING.floorWithoutSize,
    ]);
    expect(buildingWarnings({ ...complete, floors: [floor(0)] })).toEqual([
      BUILDING_WARNING.floorWithoutSize,
    ]);
    expect(buildingWarnings({ ...complete, floors: [floor(0.01)] })).toEqual([]);
  });

  it('wants a rate above 0', () => {
    for (const rate of [null, undefined, '', 'abc', 0, -1, Number.NaN])
      expect(buildingWarnings({ ...complete, rate })).toEqual([BUILDING_WARNING.noRate]);
    expect(buildingWarnings({ ...complete, rate: '0.01' })).toEqual([]);
    expect(buildingWarnings({ ...complete, rate: '8,500' })).toEqual([]);
  });

  it('wants the unit count of a building priced by units, and no floors then', () => {
    const perBay = { ...complete, unit: 'bay', floors: [] };
    expect(buildingWarnings({ ...perBay, numberOfUnits: null })).toEqual([BUILDING_WARNING.noUnitCount]);
    expect(buildingWarnings({ ...perBay, numberOfUnits: 0 })).toEqual([BUILDING_WARNING.noUnitCount]);
    expect(buildingWarnings({ ...perBay, numberOfUnits: 1 })).toEqual([]);
    expect(buildingWarnings({ ...complete, numberOfUnits: null })).toEqual([]);
  });

  it('lists every warning, in the spec’s order', () => {
    expect(buildingWarnings(building('Empty', { constructionType: '', rate: null }))).toEqual([
      BUILDING_WARNING.noConstructionType,
      BUILDING_WARNING.noFloors,
      BUILDING_WARNING.noRate,
    ]);
    expect(
      buildingWarnings(
        building('Empty', { constructionType: '', rate: null, floors: [floor(null)], unit: 'each' }),
      ),
    ).toEqual([BUILDING_WARNING.noConstructionType, BUILDING_WARNING.noRate, BUILDING_WARNING.noUnitCount]);
  });
});

describe('spec 02 §5: fee dialog and grid cells', () => {
  it('requires type, buildings and price, each with its own error', () => {
    expect(feeDialogErrors({ type: '', buildings: null, price: '' })).toEqual({
      type: REPORT_BUILDER_ERROR.feeTypeRequired,
      buildings: REPORT_BUILDER_ERROR.feeBuildingsRequired,
      price: REPORT_BUILDER_ERROR.feePriceRequired,
    });
    expect(feeDialogErrors({ type: 'RESIDENTIAL', buildings: 0, price: 0 })).toEqual({});
    expect(feeDialogErrors({ type: 'RESIDENTIAL', buildings: '2', price: '1,250.50' })).toEqual({});
  });

  it('wants whole buildings ≥ 0 and a price ≥ 0', () => {
    expect(feeDialogErrors({ type: 'RESIDENTIAL', buildings: -1, price: -0.01 })).toEqual({
      buildings: REPORT_BUILDER_ERROR.buildingsNotCount,
      price: REPORT_BUILDER_ERROR.priceNotAmount,
    });
    expect(feeDialogErrors({ type: 'RESIDENTIAL', buildings: 1.5, price: 'abc' })).toEqual({
      buildings: REPORT_BUILDER_ERROR.buildingsNotCount,
      price: REPORT_BUILDER_ERROR.priceNotAmount,
    });
  });

  it('checks the number of buildings and unit price cells', () => {
    expect(isBuildingCount(0)).toBe(true);
    expect(isBuildingCount(3)).toBe(true);
    expect(isBuildingCount(-1)).toBe(false);
    expect(isBuildingCount(1.5)).toBe(false);
    expect(isBuildingCount('3')).toBe(false);
    expect(isUnitPrice(0)).toBe(true);
    expect(isUnitPrice(99.99)).toBe(true);
    expect(isUnitPrice(-0.01)).toBe(false);
    expect(isUnitPrice(Number.POSITIVE_INFINITY)).toBe(false);
  });
});

describe('spec 02 §5: image crop and paste', () => {
  const image = { width: 1600, height: 1200 };

  it('has 800 × 400 as the smallest box of ratio 2 that is at least 640 × 400', () => {
    expect(CROP_SMALLEST).toEqual({ width: 800, height: 400 });
  });

  it('accepts ratio 2 boxes of at least 640 × 400 inside the image', () => {
    expect(cropBoxValid({ x: 0, y: 0, width: 800, height: 400 }, image)).toBe(true);
    expect(cropBoxValid({ x: 0, y: 0, width: 801, height: 400 }, image)).toBe(true);
    expect(cropBoxValid({ x: 0, y: 0, width: 802, height: 400 }, image)).toBe(false);
    expect(cropBoxValid({ x: 0, y: 0, width: 798, height: 399 }, image)).toBe(false);
    expect(cropBoxValid({ x: 0, y: 0, width: 640, height: 400 }, image)).toBe(false);
    expect(cropBoxValid({ x: 800, y: 0, width: 800, height: 400 }, image)).toBe(true);
    expect(cropBoxValid({ x: 801, y: 0, width: 800, height: 400 }, image)).toBe(false);
    expect(cropBoxValid({ x: -1, y: 0, width: 800, height: 400 })).toBe(true);
    expect(cropBoxValid({ x: 0, y: 0, width: Number.NaN, height: 400 })).toBe(false);
  });

  it('clamps a box to the nearest valid one', () => {
    expect(clampCropBox({ x: 10, y: 20, width: 300, height: 300 }, image)).toEqual({
      x: 10,
      y: 20,
      width: 800,
      height: 400,
    });
    expect(clampCropBox({ x: 1500, y: 1100, width: 1001, height: 10 }, image)).toEqual({
      x: 600,
      y: 700,
      width: 1000,
      height: 500,
    });
    expect(clampCropBox({ x: 0, y: 0, width: 5000, height: 5000 }, { width: 2000, height: 450 })).toEqual({
      x: 0,
      y: 0,
      width: 900,
      height: 450,
    });
    expect(clampCropBox({ x: 0, y: 0, width: 800, height: 400 }, { width: 799, height: 600 })).toBeNull();
    expect(clampCropBox({ x: 0, y: 0, width: 800, height: 400 }, { width: 1000, height: 399 })).toBeNull();
  });

  it('pastes PNG only', () => {
    expect(isPastableImage('image/png')).toBe(true);
    expect(isPastableImage('IMAGE/PNG')).toBe(true);
    expect(isPastableImage('image/png; foo=bar')).toBe(true);
    expect(isPastableImage('image/jpeg')).toBe(false);
    expect(isPastableImage('image/apng')).toBe(false);
    expect(isPastableImage('')).toBe(false);
    expect(isPastableImage(null)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------------
// §4.4 behaviour
// ---------------------------------------------------------------------------------------------------------

describe('spec 02 §4.4: behaviour', () => {
  it('warns when the window is closed', () => {
    expect(CLOSE_WINDOW_WARNING).toBe('If you close this window, you will lose all unsaved changes.');
  });

  it('resets the lower dropdown levels when a level changes', () => {
    expect(RATE_LEVELS).toEqual(['category', 'type', 'class', 'rate']);
    expect(PLEASE_SELECT_A_VALUE).toBe('Please select a value');
    expect(PLEASE_SELECT_OR_TYPE).toBe('Please select or type in value');
    const full: RateSelection = { category: 'buildings', type: 'dwelling', class: 'A-s', rate: '8500' };
    expect(changeRateLevel(full, 'category', 'outbuildings')).toEqual({
      category: 'outbuildings',
      type: PLEASE_SELECT_A_VALUE,
      class: PLEASE_SELECT_A_VALUE,
      rate: PLEASE_SELECT_OR_TYPE,
    });
    expect(changeRateLevel(full, 'type', 'flat')).toEqual({
      category: 'buildings',
      type: 'flat',
      class: PLEASE_SELECT_A_VALUE,
      rate: PLEASE_SELECT_OR_TYPE,
    });
    expect(changeRateLevel(full, 'class', 'A-e')).toEqual({
      ...full,
      class: 'A-e',
      rate: PLEASE_SELECT_OR_TYPE,
    });
    expect(changeRateLevel(full, 'rate', '9000')).toEqual({ ...full, rate: '9000' });
    expect(changeRateLevel(full, 'type', 'dwelling')).toEqual(full);
    expect(changeRateLevel(EMPTY_RATE_SELECTION, 'category', 'buildings')).toEqual({
      ...EMPTY_RATE_SELECTION,
      category: 'buildings',
    });
    expect(isPlaceholder(PLEASE_SELECT_A_VALUE)).toBe(true);
    expect(isPlaceholder(PLEASE_SELECT_OR_TYPE)).toBe(true);
    expect(isPlaceholder('buildings')).toBe(false);
  });

  it('numbers markers from 1 and renumbers on delete', () => {
    const items = [{ marker: marker(7) }, { marker: marker(3) }, { marker: null }, { marker: marker(9) }];
    expect(renumberMarkers(items).map((i) => i.marker?.number)).toEqual([1, 2, undefined, 4]);
    expect(removeAndRenumber(items, 1).map((i) => i.marker?.number)).toEqual([1, undefined, 3]);
    expect(nextMarkerNumber([])).toBe(1);
    expect(nextMarkerNumber(items)).toBe(5);
    expect(items[0]!.marker!.number).toBe(7);
  });

  it('moves a building to the end of another section with the next number, renumbering the old one', () => {
    const sections: ReportSections = {
      a: section('Main', {
        buildings: withMarkers([building('House'), building('Garage'), building('Shed')]),
      }),
      b: section('Cottage', { buildings: withMarkers([building('Cottage')]) }),
    };
    const result = moveBuilding(sections, 'a', 0, 'b');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.sections.a!.buildings.map((x) => [x.name, x.marker!.number])).toEqual([
      ['Garage', 1],
      ['Shed', 2],
    ]);
    expect(result.sections.b!.buildings.map((x) => [x.name, x.marker!.number])).toEqual([
      ['Cottage', 1],
      ['House', 2],
    ]);
    expect(sections.a!.buildings).toHaveLength(3);
  });

  it('refuses a move to the same or an unknown section, of an unknown building, or onto a name in use', () => {
    const sections: ReportSections = {
      a: section('Main', { buildings: withMarkers([building('House')]) }),
      b: section('Cottage', { improvements: [improvement('house', 1, 1)] }),
      c: section('Empty'),
    };
    expect(moveBuilding(sections, 'a', 0, 'a')).toEqual({ ok: false, reason: 'same section' });
    expect(moveBuilding(sections, 'a', 0, 'x')).toEqual({ ok: false, reason: 'unknown section' });
    expect(moveBuilding(sections, 'a', 5, 'c')).toEqual({ ok: false, reason: 'unknown building' });
    expect(moveBuilding(sections, 'a', 0, 'b')).toEqual({ ok: false, reason: 'name taken' });
    expect(moveBuilding(sections, 'a', 0, 'c').ok).toBe(true);
  });

  it('deletes only a section without buildings, renumbering the others', () => {
    const sections: ReportSections = {
      a: { ...section('Main', { buildings: [building('House')] }), marker: marker(1) },
      b: { ...section('Empty'), marker: marker(2) },
      c: { ...section('Boundary'), marker: marker(3) },
    };
    expect(canDeleteSection(sections.a!)).toBe(false);
    expect(canDeleteSection(sections.b!)).toBe(true);
    expect(deleteSection(sections, 'a')).toBeNull();
    expect(deleteSection(sections, 'x')).toBeNull();
    const after = deleteSection(sections, 'b')!;
    expect(Object.keys(after)).toEqual(['a', 'c']);
    expect(after.c!.marker!.number).toBe(2);
  });

  it('names the first section DEFAULT', () => {
    expect(DEFAULT_SECTION_NAME).toBe('DEFAULT');
    expect(newSectionName({})).toBe('DEFAULT');
    expect(newSectionName({ a: section('Main') })).toBe('');
  });

  it('fits the floors to the floor count', () => {
    const floors = [floor(1), floor(2, true), floor(3)];
    expect(fitFloors(floors, 2)).toEqual([floor(1), floor(2, true)]);
    expect(fitFloors(floors, 0)).toEqual([]);
    expect(fitFloors(floors, 3)).toEqual(floors);
    expect(fitFloors(floors, 5)).toEqual([...floors, emptyFloor(), emptyFloor()]);
    expect(fitFloors(floors, 2.9)).toHaveLength(2);
    expect(fitFloors(floors, -1)).toEqual([]);
    expect(fitFloors(floors, Number.NaN)).toEqual(floors);
  });

  it('reads the extra field value: blank is 0, commas stripped', () => {
    expect(parseExtraFieldValue('')).toBe(0);
    expect(parseExtraFieldValue('   ')).toBe(0);
    expect(parseExtraFieldValue(null)).toBe(0);
    expect(parseExtraFieldValue('1,234.5')).toBe(1234.5);
    expect(parseExtraFieldValue('1,234,567')).toBe(1234567);
    expect(parseExtraFieldValue(42)).toBe(42);
    expect(parseExtraFieldValue('abc')).toBeNull();
    expect(parseAmount(' 13 500 ')).toBe(13500);
    expect(parseAmount(Number.NaN)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------
// issue 13: sum insured
// ---------------------------------------------------------------------------------------------------------

describe('issue 13: the sum-insured check', () => {
  it('compares against the grand total with a 10 % tolerance by default', () => {
    expect(DEFAULT_SUM_INSURED_TOLERANCE_PERCENT).toBe(10);
    expect(sumInsuredCheck(800000, 1000000)).toEqual({ verdict: 'under-insured', differencePercent: -20 });
    expect(sumInsuredCheck(899999.99, 1000000)).toEqual({ verdict: 'under-insured', differencePercent: -10 });
    expect(sumInsuredCheck(900000, 1000000)).toEqual({ verdict: 'within', differencePercent: -10 });
    expect(sumInsuredCheck(1000000, 1000000)).toEqual({ verdict: 'within', differencePercent: 0 });
    expect(sumInsuredCheck(1100000, 1000000)).toEqual({ verdict: 'within', differencePercent: 10 });
    expect(sumInsuredCheck(1100000.01, 1000000)).toEqual({ verdict: 'over-insured', differencePercent: 10 });
    expect(sumInsuredCheck(1500000, 1000000)).toEqual({ verdict: 'over-insured', differencePercent: 50 });
    expect(sumInsuredCheck(0, 1000000)).toEqual({ verdict: 'under-insured', differencePercent: -100 });
  });

  it('takes another tolerance', () => {
    expect(sumInsuredCheck(950000, 1000000, 5)).toEqual({ verdict: 'within', differencePercent: -5 });
    expect(sumInsuredCheck(949999, 1000000, 5)!.verdict).toBe('under-insured');
    expect(sumInsuredCheck(1000001, 1000000, 0)!.verdict).toBe('over-insured');
    // report 1's grand total, 3 429 358.17, insured for 3 000 000: −429 358.17 / 3 429 358.17 = −0.125201 → −12.52 %
    expect(sumInsuredCheck(3000000, 3429358.17)).toEqual({
      verdict: 'under-insured',
      differencePercent: -12.52,
    });
  });

  it('answers null without a sum insured or a grand total', () => {
    expect(sumInsuredCheck(null, 1000000)).toBeNull();
    expect(sumInsuredCheck(undefined, 1000000)).toBeNull();
    expect(sumInsuredCheck(-1, 1000000)).toBeNull();
    expect(sumInsuredCheck(1000000, 0)).toBeNull();
    expect(sumInsuredCheck(Number.NaN, 1000000)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------------------------------------

describe('properties', () => {
  const money = fc.integer({ min: 0, max: 1_000_000_00 }).map((cents) => cents / 100);
  const arbFloor = fc.record({
    size: fc.option(fc.double({ min: 0, max: 10_000, noNaN: true }), { nil: null }),
    doubleVolume: fc.boolean(),
    location: fc.constant(''),
  });
  const arbBuilding = fc
    .record({
      floors: fc.array(arbFloor, { maxLength: 5 }),
      rate: money,
      slope: fc.boolean(),
      slopePercentage: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
      unit: fc.constantFrom('no', 'each'),
      numberOfUnits: fc.option(fc.nat({ max: 1000 }), { nil: null }),
      improvements: fc.array(fc.record({ rate: money, numberOfUnits: fc.nat({ max: 1000 }) }), {
        maxLength: 2,
      }),
    })
    .map((fields) =>
      building('B', {
        ...fields,
        improvements: fields.improvements.map((i) => improvement('I', i.numberOfUnits, i.rate)),
      }),
    );
  const arbSections = fc
    .array(fc.array(arbBuilding, { maxLength: 4 }), { maxLength: 3 })
    .map((list) =>
      Object.fromEntries(list.map((buildings, i) => [`s${i}`, section(`S${i}`, { buildings })])),
    );
  const arbSettings = fc.record({
    doubleVolumePercent: fc.double({ min: 0, max: 100, noNaN: true }),
    includeProfessionalFee: fc.boolean(),
    professionalFeePercentage: fc.double({ min: 0, max: 30, noNaN: true }),
    includeVAT: fc.boolean(),
    vatPercentage: fc.double({ min: 0, max: 30, noNaN: true }),
  });

  it('renumbering always yields 1..n, and so does deleting one', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 30 }), fc.nat(), (numbers, at) => {
        const items = numbers.map((n) => ({ marker: marker(n) }));
        expect(renumberMarkers(items).map((i) => i.marker.number)).toEqual(numbers.map((_, i) => i + 1));
        if (items.length > 0) {
          const left = removeAndRenumber(items, at % items.length);
          expect(left.map((i) => i.marker!.number)).toEqual(left.map((_, i) => i + 1));
        }
      }),
    );
  });

  it('totals are never negative for non-negative inputs, and add up in whole cents', () => {
    fc.assert(
      fc.property(arbSections, arbSettings, fc.boolean(), money, (sections, settings, include, value) => {
        const t = reportTotals(sections, { include, description: '', value }, settings);
        for (const figure of [t.subtotal, t.professionalFee, t.vat, t.grandTotal]) {
          expect(figure).toBeGreaterThanOrEqual(0);
        }
        for (const cents of Object.values(t.cents)) expect(Number.isInteger(cents)).toBe(true);
        expect(t.cents.grandTotal).toBe(t.cents.subtotal + t.cents.professionalFee + t.cents.vat);
        const sectionsCents = Object.values(t.sections).reduce((sum, s) => sum + toCents(s.subtotal), 0);
        expect(t.cents.subtotal).toBe(sectionsCents + (include ? toCents(value) : 0));
      }),
    );
  });

  it('formatting round-trips through parsing', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (cents) => {
        const text = formatMoney(cents / 100);
        expect(text).toMatch(/^-?\d{1,3}(,\d{3})*\.\d{2}$/);
        expect(parseAmount(text)).toBe(cents / 100);
      }),
    );
  });

  it('changing a level keeps the levels above and resets those below', () => {
    const level = fc.constantFrom(...RATE_LEVELS);
    const text = fc.string({ minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.tuple(text, text, text, text), level, text, ([category, type, cls, rate], at, value) => {
        const before: RateSelection = { category, type, class: cls, rate };
        const after = changeRateLevel(before, at, value);
        const i = RATE_LEVELS.indexOf(at);
        expect(after[at]).toBe(value);
        for (const above of RATE_LEVELS.slice(0, i)) expect(after[above]).toBe(before[above]);
        if (before[at] !== value)
          for (const below of RATE_LEVELS.slice(i + 1))
            expect(after[below]).toBe(below === 'rate' ? PLEASE_SELECT_OR_TYPE : PLEASE_SELECT_A_VALUE);
      }),
    );
  });

  it('a clamped crop box is always valid', () => {
    const dim = fc.integer({ min: 0, max: 5000 });
    fc.assert(
      fc.property(dim, dim, fc.record({ x: dim, y: dim, width: dim, height: dim }), (width, height, box) => {
        const clamped = clampCropBox(box, { width, height });
        if (width >= 800 && height >= 400) expect(cropBoxValid(clamped!, { width, height })).toBe(true);
        else expect(clamped).toBeNull();
      }),
    );
  });

  it('moving a building keeps every building and numbers both sections 1..n', () => {
    fc.assert(
      fc.property(fc.nat({ max: 5 }), fc.nat({ max: 5 }), fc.nat(), (inA, inB, pick) => {
        fc.pre(inA > 0);
        const names = (prefix: string, n: number) =>
          Array.from({ length: n }, (_, i) => building(`${prefix}${i}`));
        const sections: ReportSections = {
          a: section('A', { buildings: withMarkers(names('a', inA)) }),
          b: section('B', { buildings: withMarkers(names('b', inB)) }),
        };
        const result = moveBuilding(sections, 'a', pick % inA, 'b');
        if (!result.ok) throw new Error(result.reason);
        expect(result.sections.a!.buildings).toHaveLength(inA - 1);
        expect(result.sections.b!.buildings).toHaveLength(inB + 1);
        for (const s of Object.values(result.sections))
          expect(s.buildings.map((x) => x.marker!.number)).toEqual(s.buildings.map((_, i) => i + 1));
      }),
    );
  });
});
