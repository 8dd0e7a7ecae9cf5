/**
 * The ground a town lays out on: 1 km cells ring by ring around its centre, each used when it lies on land
 * and inside the town's Voronoi cell among its neighbours (with a margin).
 */
import { inTownGround, toLat, toLon } from '../world';
import { type Cell, CELL_M, type TownSite } from './context';

const MAX_RING = 40;

export class TownGround {
  private readonly cells: Generator<Cell & { ring: number }>;

  constructor(private readonly site: TownSite) {
    this.cells = this.spiral();
  }

  /** The next usable cell (now one of the town's accepted cells), or undefined when the town is out of ground. */
  nextCell(): Cell | undefined {
    for (;;) {
      const next = this.cells.next();
      if (next.done) return undefined;
      const { x, y } = next.value;
      if (!this.cellUsable(x, y)) continue;
      this.site.accepted.push({ x, y });
      return { x, y };
    }
  }

  /** Whether every point of a ring (metres in the town's frame) is the town's land, 100 m from its borders. */
  holds(ring: [number, number][]): boolean {
    const { context, frame } = this.site;
    return ring.every(
      ([x, y]) => inTownGround(context.plan, x, y, 100) && context.isLand(toLon(frame, x), toLat(frame, y)),
    );
  }

  /** Cells ring by ring around the centre, nearest first within a ring; stops after rings with no ground. */
  private *spiral(): Generator<Cell & { ring: number }> {
    yield { x: 0, y: 0, ring: 0 };
    const { accepted } = this.site;
    let lastUsefulRing = 0;
    for (let ring = 1; ring <= MAX_RING; ring += 1) {
      const cells: { x: number; y: number; ring: number }[] = [];
      for (let i = -ring; i <= ring; i += 1) {
        for (let j = -ring; j <= ring; j += 1) {
          if (Math.max(Math.abs(i), Math.abs(j)) === ring) cells.push({ x: i * CELL_M, y: j * CELL_M, ring });
        }
      }
      cells.sort(
        (a, b) => Math.hypot(a.x, a.y) - Math.hypot(b.x, b.y) || Math.atan2(a.y, a.x) - Math.atan2(b.y, b.x),
      );
      const before = accepted.length;
      for (const cell of cells) yield cell;
      if (accepted.length > before) lastUsefulRing = ring;
      else if (ring - lastUsefulRing >= 3) return;
    }
  }

  private cellUsable(x: number, y: number): boolean {
    const { context, frame } = this.site;
    const half = CELL_M / 2;
    for (const [cx, cy] of [
      [x - half, y - half],
      [x + half, y - half],
      [x + half, y + half],
      [x - half, y + half],
      [x, y],
    ]) {
      if (!inTownGround(context.plan, cx, cy, 60)) return false;
      if (!context.isLand(toLon(frame, cx), toLat(frame, cy))) return false;
    }
    return true;
  }
}
