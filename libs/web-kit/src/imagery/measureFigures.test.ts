import LineString from 'ol/geom/LineString';
import Polygon from 'ol/geom/Polygon';
import { fromLonLat } from 'ol/proj';
import { MAX_MEASUREMENT_VERTICES } from '@portal/contracts';
import { draftOf, figuresOf, formatArea, formatLength, toMeasurementInput } from './measureFigures';

// ol/sphere's sphere (the mean Earth radius), on which a lat/lng rectangle's area and a meridian's or the
// equator's length have closed forms: the expected figures below are worked out independently of OpenLayers.
const R = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;
const rectangleArea = (south: number, north: number, west: number, east: number) =>
  R * R * radians(east - west) * (Math.sin(radians(north)) - Math.sin(radians(south)));

const view = (coordinates: number[][]) => coordinates.map((coordinate) => fromLonLat(coordinate));

// A plot in Stellenbosch, 0.0005° square (~46 m east–west, ~55 m north–south).
const SOUTH = -33.9365;
const NORTH = -33.936;
const WEST = 18.8605;
const EAST = 18.861;
const plot = [
  [WEST, SOUTH],
  [EAST, SOUTH],
  [EAST, NORTH],
  [WEST, NORTH],
  [WEST, SOUTH],
];

describe('geodesic figures', () => {
  it('gives a lat/lng rectangle the area of the sphere formula', () => {
    const { areaM2 } = figuresOf(new Polygon([view(plot)]));
    const expected = rectangleArea(SOUTH, NORTH, WEST, EAST);
    expect(expected).toBeGreaterThan(2500);
    expect(areaM2).toBeCloseTo(expected, 0);
  });

  it('gives the rectangle a perimeter of two meridian arcs and two parallel arcs', () => {
    const { lengthM } = figuresOf(new Polygon([view(plot)]));
    const meridian = R * radians(NORTH - SOUTH);
    // A parallel's arc is not a great circle: the geodesic between the corners is a hair shorter.
    const southArc = R * radians(EAST - WEST) * Math.cos(radians(SOUTH));
    const northArc = R * radians(EAST - WEST) * Math.cos(radians(NORTH));
    expect(lengthM).toBeCloseTo(2 * meridian + southArc + northArc, 1);
  });

  it('measures a meridian and the equator as arcs of the sphere', () => {
    expect(
      figuresOf(
        new LineString(
          view([
            [18.86, -33.94],
            [18.86, -33.93],
          ]),
        ),
      ).lengthM,
    ).toBeCloseTo(R * radians(0.01), 2);
    expect(
      figuresOf(
        new LineString(
          view([
            [0, 0],
            [0.01, 0],
          ]),
        ),
      ).lengthM,
    ).toBeCloseTo(R * radians(0.01), 2);
  });

  it('measures a polyline as the sum of its legs and has no area', () => {
    const line = figuresOf(
      new LineString(
        view([
          [0, 0],
          [0, 0.001],
          [0.001, 0.001],
        ]),
      ),
    );
    expect(line.lengthM).toBeCloseTo(2 * R * radians(0.001), 1);
    expect(line.areaM2).toBeNull();
  });

  it('agrees with PostGIS geography within 0.5 % for a building (ellipsoid vs sphere)', () => {
    // ST_Area(geography) of this footprint, as services/requests checks it against the database: the
    // WGS 84 ellipsoid gives ~0.25 % more than the sphere at 34° S.
    const house = [
      [18.8606, -33.9364],
      [18.86075, -33.9364],
      [18.86075, -33.93628],
      [18.8606, -33.93628],
      [18.8606, -33.9364],
    ];
    const { areaM2 } = figuresOf(new Polygon([view(house)]));
    const sphere = rectangleArea(-33.9364, -33.93628, 18.8606, 18.86075);
    expect(Math.abs(areaM2! - sphere) / sphere).toBeLessThan(0.005);
  });
});

describe('drafts', () => {
  it('carries an area in m² with its perimeter, the ring in lng/lat', () => {
    const draft = draftOf('area', new Polygon([view(plot)]), { surveyId: 7, capturedOn: '2019-03-14' })!;
    expect(draft.kind).toBe('area');
    expect(draft.unit).toBe('m²');
    expect(draft.surveyId).toBe(7);
    expect(draft.value).toBeCloseTo(rectangleArea(SOUTH, NORTH, WEST, EAST), 1);
    expect(draft.perimeterM).toBeGreaterThan(200);
    expect(draft.geometry.type).toBe('Polygon');
    const ring = (draft.geometry as { coordinates: number[][][] }).coordinates[0];
    expect(ring[0]).toEqual([WEST, SOUTH]);
    expect(ring[2]).toEqual([EAST, NORTH]);
    expect(draft.text).toMatch(/^\d+\.\d m² · perimeter \d+\.\d\d m$/);
    expect(draft.text).toContain(formatLength(draft.perimeterM!));
    expect(draft.label).toBe('Area');
  });

  it('carries a distance in metres', () => {
    const draft = draftOf(
      'distance',
      new LineString(
        view([
          [0, 0],
          [0, 0.001],
        ]),
      ),
    )!;
    expect(draft).toMatchObject({ kind: 'distance', unit: 'm', perimeterM: null, surveyId: null });
    expect(draft.value).toBeCloseTo(R * radians(0.001), 1);
    expect(draft.text).toBe(formatLength(draft.value));
  });

  it('has none for a polygon of two points, a line of one, or more vertices than a measurement may have', () => {
    expect(
      draftOf(
        'area',
        new Polygon([
          view([
            [0, 0],
            [0, 0.001],
            [0, 0],
          ]),
        ]),
      ),
    ).toBeNull();
    expect(draftOf('length', new LineString(view([[0, 0]])))).toBeNull();
    const many = Array.from({ length: MAX_MEASUREMENT_VERTICES + 1 }, (_, i) => [i * 1e-5, 0]);
    expect(draftOf('length', new LineString(view(many)))).toBeNull();
  });

  it('becomes the body to save, refusing one without a survey', () => {
    const draft = draftOf(
      'length',
      new LineString(
        view([
          [0, 0],
          [0, 0.001],
        ]),
      ),
    )!;
    expect(() => toMeasurementInput(draft)).toThrow(RangeError);
    expect(toMeasurementInput({ ...draft, label: 'Boundary wall' }, 3)).toEqual({
      kind: 'length',
      surveyId: 3,
      geometry: draft.geometry,
      label: 'Boundary wall',
    });
  });

  it('formats lengths and areas', () => {
    expect(formatLength(12.4)).toBe('12.40 m');
    expect(formatLength(1240)).toBe('1.24 km');
    expect(formatArea(148.24)).toBe('148.2 m²');
    expect(formatArea(12_500)).toBe('1.25 ha');
  });
});
