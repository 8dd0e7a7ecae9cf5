import sharp from 'sharp';
import type { ObliqueCamera, Orientation } from '@portal/contracts';
import { BUILTIN_VIEW_WIDTH_M, builtinCamera, formatSaLongDate } from '@portal/domain';
import { counterClockwise, type LocalPoint, type LocalRing, type Scene, type SceneBuilding } from './scene';

/**
 * Draws a scene as an aerial picture: the orthogonal view from straight above (north up), or an
 * oblique view from the north, east, south or west, looking towards the location at 45° down — the
 * four views an oblique flight gives. Parcels, street surfaces and building footprints are extruded to
 * their heights with walls and roofs shaded by a northern sun (the southern hemisphere's), buildings drawn
 * back to front; pools as water on the ground. The survey's capture date is printed in the bottom-right
 * corner. The camera is libs/domain's built-in camera (imagery/camera.ts), the one the locator hands out
 * with each picture, so heights read off a picture with it are the heights drawn. SVG, rasterised to JPEG
 * by sharp.
 */

export const IMAGE_SIZES = {
  full: { width: 1024, height: 768 },
  small: { width: 320, height: 240 },
} as const;
export type ImageSize = keyof typeof IMAGE_SIZES;

export const ORIENTATION_NAMES: Record<Orientation, string> = {
  n: 'North',
  e: 'East',
  s: 'South',
  w: 'West',
  o: 'Ortho',
};

/** The sun, towards the north-west and 55° up: unit vector (east, north, up). */
const SUN = normalise([-0.45, 0.55, 1.0]);

const COLOURS = {
  ground: '#cfc7a4',
  parcel: '#b7c894',
  parcelEdge: '#efe9d8',
  parcelHere: '#ffd33d',
  water: '#3d8fd6',
  waterEdge: '#e8f1f7',
  road: '#707070',
  roadEdge: '#d9d4c5',
  wall: [232, 224, 206] as const,
  roofPitched: [[164, 86, 58] as const, [92, 96, 104] as const, [140, 110, 80] as const],
  roofFlat: [190, 186, 176] as const,
  shadow: 'rgb(40, 40, 30)',
  shadowOpacity: 0.3,
  marker: '#d32f2f',
};

export interface Projector {
  /** Screen position of a point at `height` metres above the ground. */
  project(point: LocalPoint, height: number): [number, number];
  /** How far from the camera: larger is farther, drawn first. */
  depth(point: LocalPoint, height: number): number;
  oblique: boolean;
}

/** How much ground a picture shows and what it draws besides the scene. */
export interface ViewOptions {
  /** Ground width shown (metres). Default the built-in camera's, BUILTIN_VIEW_WIDTH_M. */
  widthM?: number;
  /** Ground height shown (metres; ortho only). Default: the width's scale, so pixels are square. */
  heightM?: number;
  /** Draw the location's marker and the view's name. Default true; map tiles draw neither. */
  annotate?: boolean;
}

/** The camera a picture of `width` × `height` pixels is drawn with (the built-in one, or a tile's width). */
export function pictureCamera(
  orientation: Orientation,
  width: number,
  height: number,
  options: ViewOptions = {},
): ObliqueCamera {
  return {
    ...builtinCamera(orientation, width, height),
    metresAcross: options.widthM ?? BUILTIN_VIEW_WIDTH_M,
  };
}

/**
 * Where the camera puts points: a parallel projection at the camera's tilt, looking from its bearing
 * towards the centre. A point h metres up moves h × cos(tilt) × (width ÷ metresAcross) pixels up the
 * picture — the relation libs/domain's heightFromPicks inverts.
 */
export function projector(camera: ObliqueCamera, options: Pick<ViewOptions, 'heightM'> = {}): Projector {
  const { width, height } = camera;
  const scale = width / camera.metresAcross;
  if (camera.orientation === 'o') {
    const northScale = options.heightM ? height / options.heightM : scale;
    return {
      oblique: false,
      project: ([east, north]) => [width / 2 + east * scale, height / 2 - north * northScale],
      depth: (_point, h) => -h,
    };
  }
  const tilt = (camera.tiltDegrees * Math.PI) / 180;
  const [SIN_TILT, COS_TILT] = [Math.sin(tilt), Math.cos(tilt)];
  const bearing = (camera.bearingDegrees * Math.PI) / 180;
  // Forward: from the camera towards the location; right: forward turned clockwise.
  const forward: LocalPoint = [-Math.sin(bearing), -Math.cos(bearing)];
  const right: LocalPoint = [forward[1], -forward[0]];
  const along = ([east, north]: LocalPoint, axis: LocalPoint) => east * axis[0] + north * axis[1];
  return {
    oblique: true,
    project: (point, h) => [
      width / 2 + along(point, right) * scale,
      height / 2 - (along(point, forward) * SIN_TILT + h * COS_TILT) * scale,
    ],
    depth: (point, h) => along(point, forward) * COS_TILT - h * SIN_TILT,
  };
}

const pointsAttribute = (points: [number, number][]) =>
  points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');

const polygonPath = (rings: [number, number][][]) =>
  rings
    .filter((ring) => ring.length >= 3)
    .map((ring) => `M${pointsAttribute(ring).replaceAll(' ', 'L')}Z`)
    .join('');

function shade(colour: readonly [number, number, number], normal: readonly number[]): string {
  // Ambient light plus the sun on faces turned towards it.
  const light = 0.62 + 0.5 * Math.max(0, dot(normal, SUN));
  const [r, g, b] = colour.map((channel) => Math.round(Math.min(255, channel * light)));
  return `rgb(${r},${g},${b})`;
}

interface Face {
  depth: number;
  svg: string;
}

/** Walls (the ones the camera sees) and roof of one building, back to front. */
function buildingFaces(
  building: SceneBuilding,
  view: Projector,
  roofColour: readonly [number, number, number],
) {
  const ring = building.footprint;
  const h = building.heightM;
  const faces: Face[] = [];
  const centroid = ringCentroid(ring);
  if (view.oblique) {
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i];
      const b = ring[(i + 1) % ring.length];
      // Outward normal of a counter-clockwise ring's edge.
      const normal = normalise([b[1] - a[1], -(b[0] - a[0]), 0]);
      const middle: LocalPoint = [(a[0] + b[0]) / 2 + normal[0] * 0.01, (a[1] + b[1]) / 2 + normal[1] * 0.01];
      const inward: LocalPoint = [(a[0] + b[0]) / 2 - normal[0], (a[1] + b[1]) / 2 - normal[1]];
      if (view.depth(middle, 0) >= view.depth(inward, 0)) continue; // the wall faces away from the camera
      faces.push({
        depth: view.depth(middle, h / 2),
        svg: `<polygon points="${pointsAttribute([view.project(a, 0), view.project(b, 0), view.project(b, h), view.project(a, h)])}" fill="${shade(COLOURS.wall, normal)}" stroke="rgba(60,50,40,0.35)" stroke-width="0.6"/>`,
      });
    }
  }
  const roofFaces: Face[] = [];
  if (building.roof === 'flat') {
    roofFaces.push({
      depth: view.depth(centroid, h),
      svg: `<polygon points="${pointsAttribute(ring.map((p) => view.project(p, h)))}" fill="${shade(COLOURS.roofFlat, [0, 0, 1])}" stroke="rgba(70,70,70,0.6)" stroke-width="0.8"/>`,
    });
  } else {
    // A hipped roof: a slope from each eave up to a ridge point over the middle.
    const rise = Math.min(3.5, 0.35 * Math.sqrt(Math.abs(areaOf(ring))));
    const apex = centroid;
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i];
      const b = ring[(i + 1) % ring.length];
      const normal = normalise(
        cross([b[0] - a[0], b[1] - a[1], 0], [apex[0] - a[0], apex[1] - a[1], rise]) as [
          number,
          number,
          number,
        ],
      );
      if (normal[2] <= 0) continue; // a degenerate slope (footprint corner behind the centre)
      roofFaces.push({
        depth: view.depth([(a[0] + b[0] + apex[0]) / 3, (a[1] + b[1] + apex[1]) / 3], h + rise / 3),
        svg: `<polygon points="${pointsAttribute([view.project(a, h), view.project(b, h), view.project(apex, h + rise)])}" fill="${shade(roofColour, normal)}" stroke="rgba(50,30,20,0.45)" stroke-width="0.6"/>`,
      });
    }
  }
  const ordered = [...faces.sort(byDepth), ...roofFaces.sort(byDepth)];
  return ordered.map((face) => face.svg).join('');
}

const byDepth = (a: Face, b: Face) => b.depth - a.depth;

/**
 * The building's shadow on the ground: its footprint swept away from the sun, as SVG path pieces, each
 * wound the same way (counter-clockwise on the ground), so that in one path filled by the non-zero rule
 * their overlaps are covered once.
 */
function shadowPieces(building: SceneBuilding, view: Projector): string[] {
  const reach = (building.heightM / Math.max(0.3, SUN[2])) * 0.6;
  const shift: LocalPoint = [-SUN[0] * reach, -SUN[1] * reach];
  const ring = building.footprint;
  const moved = ring.map(([e, n]): LocalPoint => [e + shift[0], n + shift[1]]);
  const pieces = [
    moved,
    ...ring.map((a, i) => [a, ring[(i + 1) % ring.length], moved[(i + 1) % ring.length], moved[i]]),
  ];
  return pieces.map((piece) => polygonPath([counterClockwise(piece).map((p) => view.project(p, 0))]));
}

/** The scene as an SVG document of `width` × `height` pixels. */
export function sceneToSvg(
  scene: Scene,
  orientation: Orientation,
  width: number,
  height: number,
  options: ViewOptions = {},
): string {
  const view = projector(pictureCamera(orientation, width, height, options), options);
  const ground = (rings: LocalRing[]) =>
    polygonPath(rings.map((ring) => ring.map((p) => view.project(p, 0))));
  const strokeScale = width / 1024;
  const parts: string[] = [`<rect width="${width}" height="${height}" fill="${COLOURS.ground}"/>`];

  const parcels = scene.parcels.map((parcel) => ground(parcel.rings)).join('');
  if (parcels)
    parts.push(
      `<path d="${parcels}" fill="${COLOURS.parcel}" fill-rule="evenodd" stroke="${COLOURS.parcelEdge}" stroke-width="${(2 * strokeScale).toFixed(2)}"/>`,
    );
  const roads = scene.roads.map(ground).join('');
  if (roads)
    parts.push(
      `<path d="${roads}" fill="${COLOURS.road}" stroke="${COLOURS.roadEdge}" stroke-width="${(3 * strokeScale).toFixed(2)}"/>`,
    );
  // Pools are water on the ground: no walls, no roof, no shadow of their own (buildings' fall on them).
  const [pools, standing] = partition(scene.buildings, (building) => building.kind === 'pool');
  const water = pools.map((pool) => ground([pool.footprint])).join('');
  if (water)
    parts.push(
      `<path d="${water}" fill="${COLOURS.water}" stroke="${COLOURS.waterEdge}" stroke-width="${(1.5 * strokeScale).toFixed(2)}"/>`,
    );
  // Every shadow piece in one path, filled translucent by the non-zero rule: overlapping pieces (a
  // footprint and the sides it sweeps, neighbours' shadows) darken the ground once, without the
  // off-screen layer a translucent group costs the rasteriser.
  const shadows = standing.flatMap((building) => shadowPieces(building, view)).join('');
  if (shadows)
    parts.push(
      `<path d="${shadows}" fill="${COLOURS.shadow}" fill-opacity="${COLOURS.shadowOpacity}" fill-rule="nonzero"/>`,
    );
  const here = scene.parcels.filter((parcel) => parcel.here).map((parcel) => ground(parcel.rings));
  if (here.length > 0)
    parts.push(
      `<path d="${here.join('')}" fill="none" stroke="${COLOURS.parcelHere}" stroke-width="${(3 * strokeScale).toFixed(2)}" stroke-dasharray="${(10 * strokeScale).toFixed(1)} ${(6 * strokeScale).toFixed(1)}"/>`,
    );

  const buildings = [...standing].sort(
    (a, b) => view.depth(ringCentroid(b.footprint), 0) - view.depth(ringCentroid(a.footprint), 0),
  );
  for (const building of buildings) {
    const palette = COLOURS.roofPitched;
    const roofColour = palette[hashIndex(building.id, palette.length)];
    parts.push(buildingFaces(building, view, roofColour));
  }

  if (options.annotate === false) return svgDocument(width, height, parts);
  parts.push(markerSvg(view.project([0, 0], 0), strokeScale, view.oblique));
  const label = `${ORIENTATION_NAMES[orientation]}${orientation === 'o' ? '' : ' oblique'}`;
  const fontPx = Math.max(9, Math.round(14 * strokeScale));
  const text = (x: number, anchor: 'start' | 'end', content: string) =>
    `<text x="${x.toFixed(1)}" y="${(height - fontPx * 0.7).toFixed(1)}" text-anchor="${anchor}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${fontPx}" fill="#ffffff" stroke="rgba(0,0,0,0.55)" stroke-width="${(fontPx / 5).toFixed(1)}" paint-order="stroke">${escapeXml(content)}</text>`;
  parts.push(text(fontPx * 0.7, 'start', label));
  if (scene.survey) parts.push(text(width - fontPx * 0.7, 'end', captureCaption(scene.survey)));
  return svgDocument(width, height, parts);
}

/** What a picture says of its survey: 'Captured 14 March 2019 · Portal imagery'. */
export const captureCaption = (survey: { capturedOn: string; provider: string }) =>
  `Captured ${formatSaLongDate(`${survey.capturedOn}T12:00:00+02:00`)} · ${survey.provider}`;

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeXml = (text: string) => text.replace(/[&<>"]/g, (char) => XML_ESCAPES[char]);

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

const svgDocument = (width: number, height: number, parts: string[]) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;

function markerSvg([x, y]: [number, number], scale: number, oblique: boolean): string {
  const radius = 9 * scale;
  if (!oblique)
    return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${radius.toFixed(1)}" fill="${COLOURS.marker}" stroke="#ffffff" stroke-width="${(3 * scale).toFixed(1)}"/>`;
  // A pin standing on the location, so it reads above roofs in a slanted view.
  const top = y - 34 * scale;
  return (
    `<line x1="${x.toFixed(1)}" y1="${y.toFixed(1)}" x2="${x.toFixed(1)}" y2="${top.toFixed(1)}" stroke="#ffffff" stroke-width="${(3 * scale).toFixed(1)}"/>` +
    `<circle cx="${x.toFixed(1)}" cy="${top.toFixed(1)}" r="${radius.toFixed(1)}" fill="${COLOURS.marker}" stroke="#ffffff" stroke-width="${(3 * scale).toFixed(1)}"/>` +
    `<ellipse cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" rx="${(5 * scale).toFixed(1)}" ry="${(2.5 * scale).toFixed(1)}" fill="${COLOURS.marker}"/>`
  );
}

/** The scene as a JPEG of the given size. */
export async function renderJpeg(scene: Scene, orientation: Orientation, size: ImageSize): Promise<Buffer> {
  const { width, height } = IMAGE_SIZES[size];
  const svg = sceneToSvg(scene, orientation, width, height);
  return sharp(Buffer.from(svg))
    .jpeg({ quality: size === 'full' ? 85 : 80, mozjpeg: false })
    .toBuffer();
}

/**
 * A square map tile of `sizePx` pixels, seen straight down, showing `widthM` × `heightM` metres around
 * the scene's centre: the ortho style without the marker and label.
 */
export async function renderOrthoTileJpeg(
  scene: Scene,
  sizePx: number,
  ground: { widthM: number; heightM: number },
): Promise<Buffer> {
  const svg = sceneToSvg(scene, 'o', sizePx, sizePx, { ...ground, annotate: false });
  return sharp(Buffer.from(svg)).jpeg({ quality: 82, mozjpeg: false }).toBuffer();
}

function ringCentroid(ring: LocalRing): LocalPoint {
  const area2 = areaOf(ring) * 2;
  if (Math.abs(area2) < 1e-9) {
    const sum = ring.reduce((acc, [e, n]) => [acc[0] + e, acc[1] + n], [0, 0]);
    return [sum[0] / ring.length, sum[1] / ring.length];
  }
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[(i + 1) % ring.length];
    const f = x1 * y2 - x2 * y1;
    cx += (x1 + x2) * f;
    cy += (y1 + y2) * f;
  }
  return [cx / (3 * area2), cy / (3 * area2)];
}

function areaOf(ring: LocalRing): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[(i + 1) % ring.length];
    sum += x1 * y2 - x2 * y1;
  }
  return sum / 2;
}

function hashIndex(text: string, modulo: number): number {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % modulo;
}

function dot(a: readonly number[], b: readonly number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function cross(a: readonly number[], b: readonly number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function normalise(v: readonly number[]): [number, number, number] {
  const length = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / length, v[1] / length, v[2] / length];
}
