/** Spec 02 §4.4 behaviour: the close warning, rate dropdowns, markers, sections, moving buildings, floors. */
import fc from 'fast-check';
import {
  CLOSE_WINDOW_WARNING,
  DEFAULT_SECTION_NAME,
  EMPTY_RATE_SELECTION,
  PLEASE_SELECT_A_VALUE,
  PLEASE_SELECT_OR_TYPE,
  RATE_LEVELS,
  canDeleteSection,
  changeRateLevel,
  deleteSection,
  emptyFloor,
  fitFloors,
  isPlaceholder,
  moveBuilding,
  newSectionName,
  nextMarkerNumber,
  removeAndRenumber,
  renumberMarkers,
  type RateSelection,
} from './editing';
import { type ReportSections } from './types';
import { marker, floor, improvement, building, section, withMarkers } from './testing';

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
});

describe('properties', () => {
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
