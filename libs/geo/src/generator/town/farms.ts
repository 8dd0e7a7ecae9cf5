/**
 * Farms in a ring outside the town: sectors of the ring, each split into a remainder (portion 0, the
 * outer part) and numbered portions towards the town; a farmhouse and a shed on about half of them.
 */
import { type Batch, GENERATOR_SOURCE, NO_LIFE } from '../batch';
import { DATA_QUALITY, PARCEL_TYPE } from '../codes';
import { multiPolygonEwkb, polygonEwkb } from '../ewkb';
import { FARM_NAMES } from '../names';
import { Deck, Random } from '../random';
import { toLat, toLon } from '../world';
import { CELL_M, pad, type TownSite } from './context';
import { type TownGround } from './ground';

export function layOutFarms(batch: Batch, site: TownSite, ground: TownGround): void {
  const { accepted, frame, id } = site;
  if (accepted.length === 0) return;
  const { plan, townId } = site.context;
  const province = plan.town.province;
  const random = Random.of(site.context.seed, 'farms', id);
  const reach = Math.max(...accepted.map((cell) => Math.hypot(cell.x, cell.y))) + CELL_M * 0.75 + 300;
  const width = 2000 + 8 * Math.sqrt(Math.max(plan.target, 1));
  const farmCount = Math.min(60, Math.max(6, Math.round(6 + Math.sqrt(plan.target) / 4)));
  const division = province.divisions.length
    ? province.divisions[(plan.provinceRank + id) % province.divisions.length]
    : `${site.name} RD`;
  const sgMajor = province.divisions.length ? `0${division}0` : site.sgMajor;
  const firstNumber = 1 + plan.provinceRank * 70;
  const shares = Array.from({ length: farmCount }, () => random.range(0.6, 1.4));
  const total = shares.reduce((sum, share) => sum + share, 0);
  let angle = random.range(0, 2 * Math.PI);
  const names = new Deck(FARM_NAMES, random);

  shares.forEach((share, farm) => {
    const from = angle;
    const to = angle + (2 * Math.PI * share) / total;
    angle = to;
    const farmName = names.draw();
    const farmNumber = firstNumber + farm;
    const portions = random.int(1, 4);
    const radii = [reach];
    for (let p = 1; p < portions; p += 1)
      radii.push(reach + (width * p) / portions + random.range(-0.1, 0.1) * (width / portions));
    radii.push(reach + width);
    // The outermost piece is the remainder (portion 0), numbered portions lie towards the town.
    for (let piece = 0; piece < portions; piece += 1) {
      const portion = piece === portions - 1 ? 0 : piece + 1;
      const ring = sector(radii[piece], radii[piece + 1], from, to);
      if (!ground.holds(ring)) continue;
      const flat = ring.flatMap(([x, y]) => [toLon(frame, x), toLat(frame, y)]);
      const parcelRef = batch.parcels.length;
      const key = `${id}:${farmNumber}:${portion}`;
      const geom = multiPolygonEwkb([[flat]]); // the parcel's and the farm's
      batch.parcels.push([
        String(farmNumber),
        portion,
        PARCEL_TYPE.farm,
        random.chance(0.6) ? DATA_QUALITY.verified : DATA_QUALITY.unverified,
        `${province.sgOffice}${sgMajor}0000${pad(farmNumber, 8)}${pad(portion, 4)}`,
        townId,
        null,
        site.name,
        '',
        geom,
        GENERATOR_SOURCE,
        `farm:${key}`,
      ]);
      batch.farms.push([
        farmName,
        farmNumber,
        portion,
        division,
        parcelRef,
        site.name,
        province.name,
        geom,
        GENERATOR_SOURCE,
        `farm:${key}`,
      ]);
      if (random.chance(0.5)) {
        const mid = (from + to) / 2;
        const r = (radii[piece] + radii[piece + 1]) / 2;
        const place = (along: number, across: number, length: number, breadth: number) => {
          const cx = Math.cos(mid) * r + Math.cos(mid) * along - Math.sin(mid) * across;
          const cy = Math.sin(mid) * r + Math.sin(mid) * along + Math.cos(mid) * across;
          const corners: [number, number][] = [
            [-length / 2, -breadth / 2],
            [length / 2, -breadth / 2],
            [length / 2, breadth / 2],
            [-length / 2, breadth / 2],
          ];
          return corners.flatMap(([a, b]) => [
            toLon(frame, cx + Math.cos(mid) * a - Math.sin(mid) * b),
            toLat(frame, cy + Math.sin(mid) * a + Math.cos(mid) * b),
          ]);
        };
        batch.buildings.push([
          parcelRef,
          'farmhouse',
          1,
          4.5,
          'pitched',
          polygonEwkb([place(0, 0, 18, 12)]),
          ...NO_LIFE,
          GENERATOR_SOURCE,
          `building:farm:${key}:0`,
        ]);
        batch.buildings.push([
          parcelRef,
          'shed',
          1,
          6,
          'flat',
          polygonEwkb([place(0, 45, 26, 14)]),
          ...NO_LIFE,
          GENERATOR_SOURCE,
          `building:farm:${key}:1`,
        ]);
      }
    }
  });
}

/** An annular sector as a polygon: the outer arc one way, the inner arc back, a vertex every 3 degrees or so. */
function sector(inner: number, outer: number, from: number, to: number): [number, number][] {
  const steps = Math.max(2, Math.ceil((to - from) / 0.05));
  const points: [number, number][] = [];
  for (let i = 0; i <= steps; i += 1) {
    const angle = from + ((to - from) * i) / steps;
    points.push([Math.cos(angle) * outer, Math.sin(angle) * outer]);
  }
  for (let i = steps; i >= 0; i -= 1) {
    const angle = from + ((to - from) * i) / steps;
    points.push([Math.cos(angle) * inner, Math.sin(angle) * inner]);
  }
  return points;
}
