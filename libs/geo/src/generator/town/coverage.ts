/**
 * Imagery: high-resolution over the town's core (the cells within half its reach), ortho over the whole
 * town and a margin, or nothing (context.coverage says which).
 */
import { type Batch, GENERATOR_SOURCE } from '../batch';
import { multiPolygonHex } from '../ewkb';
import { Random } from '../random';
import { toLat, toLon } from '../world';
import { type Cell, CELL_M, pad, type TownSite } from './context';

export function layOutCoverage(batch: Batch, site: TownSite): void {
  const { accepted, frame, id } = site;
  const { coverage } = site.context;
  if (coverage === 'none' || accepted.length === 0) return;
  const random = Random.of(site.context.seed, 'coverage', id);
  const box = (cells: Cell[], margin: number) => {
    const x0 = Math.min(...cells.map((cell) => cell.x)) - CELL_M / 2 - margin;
    const x1 = Math.max(...cells.map((cell) => cell.x)) + CELL_M / 2 + margin;
    const y0 = Math.min(...cells.map((cell) => cell.y)) - CELL_M / 2 - margin;
    const y1 = Math.max(...cells.map((cell) => cell.y)) + CELL_M / 2 + margin;
    return [x0, y0, x1, y0, x1, y1, x0, y1].map((value, i) =>
      i % 2 === 0 ? toLon(frame, value) : toLat(frame, value),
    );
  };
  const date = () => `${random.int(2021, 2025)}-${pad(random.int(1, 12), 2)}-${pad(random.int(1, 28), 2)}`;
  batch.coverage.push([
    'ortho',
    `${site.name} ortho mosaic`,
    date(),
    multiPolygonHex([[box(accepted, 1500)]]),
    GENERATOR_SOURCE,
    `ortho:${id}`,
  ]);
  if (coverage === 'high_resolution') {
    const reach = Math.max(...accepted.map((cell) => Math.hypot(cell.x, cell.y)));
    const core = accepted.filter((cell) => Math.hypot(cell.x, cell.y) <= reach / 2);
    batch.coverage.push([
      'high_resolution',
      `${site.name} high-resolution flight`,
      date(),
      multiPolygonHex([[box(core, 0)]]),
      GENERATOR_SOURCE,
      `high_resolution:${id}`,
    ]);
  }
}
