import { ORIENTATIONS } from '@portal/contracts';
import { BUILTIN_VIEW_WIDTH_M, builtinCamera, heightFromPicks } from '@portal/domain';
import { IMAGE_SIZES, captureCaption, pictureCamera, projector, sceneToSvg } from './imagery/render';
import type { Scene, SceneBuilding } from './imagery/scene';

/** A flat-roofed block 20 m × 12 m, 9.6 m tall, south-west of the centre, and a pool beside it. */
const BLOCK: SceneBuilding = {
  id: 'block',
  footprint: [
    [-30, -20],
    [-10, -20],
    [-10, -8],
    [-30, -8],
  ],
  heightM: 9.6,
  roof: 'flat',
  kind: 'flats',
};
const POOL: SceneBuilding = {
  id: 'pool',
  footprint: [
    [5, 5],
    [13, 5],
    [13, 9],
    [5, 9],
  ],
  heightM: 2.5,
  roof: 'flat',
  kind: 'pool',
};

const scene = (buildings: SceneBuilding[], survey: Scene['survey'] = null): Scene => ({
  centre: { lat: -33.93, lng: 18.86 },
  parcels: [],
  roads: [],
  buildings,
  survey,
});

/** The wall quadrilaterals of an SVG (walls are the polygons with the walls' stroke), as pixel corners. */
function wallsOf(svg: string): [number, number][][] {
  return [...svg.matchAll(/<polygon points="([^"]+)"[^>]*stroke="rgba\(60,50,40,0.35\)"/g)].map((match) =>
    match[1].split(' ').map((pair) => pair.split(',').map(Number) as [number, number]),
  );
}

describe('the built-in camera model', () => {
  it('draws with the camera the locator hands out', () => {
    const { width, height } = IMAGE_SIZES.full;
    for (const orientation of ORIENTATIONS)
      expect(pictureCamera(orientation, width, height)).toEqual(builtinCamera(orientation, width, height));
    expect(builtinCamera('n', width, height).metresAcross).toBe(BUILTIN_VIEW_WIDTH_M);
  });

  it.each(['n', 'e', 's', 'w'] as const)(
    'gives back a building’s height from its base and top on the %s oblique (projector)',
    (orientation) => {
      for (const size of ['full', 'small'] as const) {
        const { width, height } = IMAGE_SIZES[size];
        const camera = builtinCamera(orientation, width, height);
        const view = projector(camera);
        for (const corner of BLOCK.footprint) {
          const base = view.project(corner, 0);
          const top = view.project(corner, BLOCK.heightM);
          expect(heightFromPicks({ camera, base, top })).toBeCloseTo(BLOCK.heightM, 2);
        }
      }
    },
  );

  it.each(['n', 'e', 's', 'w'] as const)(
    'gives back the height from the corners of a wall drawn on the %s oblique (the SVG)',
    (orientation) => {
      const { width, height } = IMAGE_SIZES.full;
      const walls = wallsOf(sceneToSvg(scene([BLOCK]), orientation, width, height));
      // A box seen from one side at 45°: one or two walls face the camera.
      expect(walls.length).toBeGreaterThanOrEqual(1);
      const camera = builtinCamera(orientation, width, height);
      for (const [baseA, baseB, topB, topA] of walls) {
        // Corners are written to 0.1 px: within a centimetre at 9.3 px per metre.
        expect(Math.abs(heightFromPicks({ camera, base: baseA, top: topA }) - BLOCK.heightM)).toBeLessThan(
          0.02,
        );
        expect(Math.abs(heightFromPicks({ camera, base: baseB, top: topB }) - BLOCK.heightM)).toBeLessThan(
          0.02,
        );
      }
    },
  );

  it('cannot read heights off the ortho', () => {
    const camera = builtinCamera('o', 1024, 768);
    const view = projector(camera);
    const [base, top] = [view.project([0, 0], 0), view.project([0, 0], 10)];
    expect(() => heightFromPicks({ camera, base, top })).toThrow(RangeError);
  });
});

describe('drawing', () => {
  it('draws a pool as water on the ground: blue, no walls, no shadow', () => {
    for (const orientation of ORIENTATIONS) {
      const withPool = sceneToSvg(scene([POOL]), orientation, 1024, 768);
      expect(withPool).toContain('fill="#3d8fd6"');
      expect(wallsOf(withPool)).toEqual([]);
      expect(withPool).not.toContain('fill="rgb(40, 40, 30)"');
    }
    // The same footprint as a shed stands up with walls on an oblique.
    expect(wallsOf(sceneToSvg(scene([{ ...POOL, kind: 'shed' }]), 'n', 1024, 768)).length).toBeGreaterThan(0);
  });

  it('prints the capture date and the provider in the bottom-right corner, escaped', () => {
    const survey = {
      id: 4,
      capturedOn: '2019-03-14',
      kind: 'high_resolution' as const,
      provider: 'Aerial & Co',
    };
    expect(captureCaption(survey)).toBe('Captured 14 March 2019 · Aerial & Co');
    for (const [width, height] of [
      [1024, 768],
      [320, 240],
    ]) {
      const svg = sceneToSvg(scene([BLOCK], survey), 'e', width, height);
      expect(svg).toMatch(
        /<text x="[\d.]+" y="[\d.]+" text-anchor="end"[^>]*>Captured 14 March 2019 · Aerial &amp; Co<\/text>/,
      );
    }
    // A map tile (no annotation) and a picture of no survey print no date.
    expect(sceneToSvg(scene([BLOCK], survey), 'o', 512, 512, { annotate: false })).not.toContain('Captured');
    expect(sceneToSvg(scene([BLOCK]), 'o', 1024, 768)).not.toContain('Captured');
  });
});
