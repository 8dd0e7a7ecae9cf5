/** Spec 02 §5 validation: names, building save warnings, the fee dialog and grid cells. */
import {
  BUILDING_WARNING,
  BUILDING_WARNING_MS,
  REPORT_BUILDER_ERROR,
  buildingNameError,
  buildingWarnings,
  feeDialogErrors,
  groupNameError,
  improvementNameError,
  isBuildingCount,
  isUnitPrice,
  sectionPopupErrors,
} from './validation';
import { floor, improvement, building, section } from './testing';

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
