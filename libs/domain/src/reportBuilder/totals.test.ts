/** Spec 02 §4.5 totals: three reports worked by hand, the parts of the totals, and their properties. */
import fc from 'fast-check';
import { formatMoney, toCents } from './money';
import {
  AREA_UNITS,
  buildingArea,
  buildingValueCents,
  improvementValueCents,
  pricingOf,
  reportTotals,
} from './totals';
import { type ReportSections, type TotalsSettings } from './types';
import { floor, improvement, building, section } from './testing';

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
});

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
});
