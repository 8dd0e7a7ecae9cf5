import { parseArgs } from 'node:util';
import { DEFAULT_SCALE, DEFAULT_SEED } from './generator/generate';
import { exportGeneratedOsm, type OsmExportProgress } from './osm/export';
import { figure, print, readScaleOption, readTownsOption } from './cli-options';

/**
 * npm run geo:osm-export -- --scale N --out world.osm.pbf [--seed S] [--towns A,B] [--progress MODE]
 * Writes the generator's world (the same rows geo:generate writes into PostgreSQL) as an OpenStreetMap
 * extract: address nodes, buildings, streets, place nodes (libs/geo/README.md, "OSM export"). No database.
 * Exit code 0 when done, 1 when it failed, 2 for a usage mistake.
 */
const USAGE = `Usage: npm run geo:osm-export -- --out FILE.osm.pbf [options]

Options:
  --out FILE         the .osm.pbf to write (replaced)
  --scale N          target number of addresses (default ${DEFAULT_SCALE})
  --seed S           same seed and scale, same world as geo:generate (default ${DEFAULT_SEED})
  --towns A,B,...    only these towns (GeoNames names, e.g. Stellenbosch,Pretoria,Durban)
  --progress MODE    auto (default: lines every 5 s), lines, none
  -h, --help         this text`;

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        out: { type: 'string' },
        scale: { type: 'string' },
        seed: { type: 'string' },
        towns: { type: 'string' },
        progress: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    print(USAGE);
    return 0;
  }
  if (!values.out) {
    console.error(`--out is required: the .osm.pbf file to write\n\n${USAGE}`);
    return 2;
  }
  const scale = readScaleOption(values.scale, DEFAULT_SCALE, USAGE);
  if (scale === undefined) return 2;
  const mode = values.progress ?? 'auto';
  if (!['auto', 'lines', 'none'].includes(mode)) {
    console.error(`--progress must be auto, lines or none, got "${mode}"`);
    return 2;
  }
  const towns = readTownsOption(values.towns);
  const seed = values.seed ?? DEFAULT_SEED;
  print(
    `Writing the generated world to ${values.out}: ${figure(scale)} addresses, seed ${seed}${towns?.length ? `, towns ${towns.join(', ')}` : ''}`,
  );
  const started = Date.now();
  let last = 0;
  const onProgress =
    mode === 'none'
      ? undefined
      : (progress: OsmExportProgress) => {
          if (Date.now() - last < 5000) return;
          last = Date.now();
          const seconds = (Date.now() - started) / 1000;
          print(
            `  ${figure(progress.addresses)} of ${figure(progress.target)} addresses, towns ${progress.towns}/${progress.townCount}, ${figure(progress.nodes)} nodes, ${figure(progress.ways)} ways (${figure(Math.round(progress.addresses / Math.max(seconds, 0.001)))} addresses/s, ${figure(Math.round(process.memoryUsage().rss / 1e6))} MB)`,
          );
        };
  try {
    const result = await exportGeneratedOsm({ scale, seed, towns, file: values.out, onProgress });
    const seconds = result.elapsedMs / 1000;
    const { counts } = result;
    print(
      `Written in ${seconds.toFixed(1)} s: ${figure(result.bytes)} bytes, ${figure(counts.nodes)} nodes and ${figure(counts.ways)} ways in ${figure(counts.blocks)} blocks, ${figure(Math.round(counts.addresses / seconds))} addresses/s`,
    );
    for (const [what, count] of Object.entries(counts))
      print(`  ${what.padEnd(12)} ${figure(count).padStart(12)}`);
    return 0;
  } catch (err) {
    console.error(`geo:osm-export failed: ${(err as Error).message}`);
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
