import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { SingleBar } from 'cli-progress';
import { DEFAULT_DATABASE_URL, redactUrl } from '@portal/db';
import { DEFAULT_SCALE, DEFAULT_SEED, generateGeodata, type GenerateProgress } from './generator/generate';
import { figure, print, readScaleOption, readTownsOption } from './cli-options';

/**
 * npm run geo:generate -- --scale N [--seed S] [--towns A,B] [--database URL] [--if-empty]
 * Lays out the generator's dataset (libs/geo/README.md) into the geo schema of a migrated database. Exit
 * code 0 when done, 1 when it could not run, 2 for a usage mistake.
 */
const USAGE = `Usage: npm run geo:generate -- [options]

Options:
  --scale N          target number of addresses (default ${DEFAULT_SCALE})
  --seed S           same seed and scale, same rows (default ${DEFAULT_SEED})
  --towns A,B,...    only these towns (GeoNames names, e.g. Stellenbosch,Pretoria,Durban)
  --database URL     PostgreSQL (default: $DATABASE_URL or ${DEFAULT_DATABASE_URL})
  --if-empty         do nothing when geo.addresses already has rows (npm start's seed step)
  --bulk MODE        auto (default: COPY with indexes built at the end, resumable per town, when no
                     generator rows exist and the scale is 100 000 or more; a stopped bulk run of the
                     same scale and seed goes on where it stopped), always, never (upserts)
  --progress MODE    auto (default: a bar on a terminal, lines in CI or a pipe), bar, lines, none
  -h, --help         this text`;

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        scale: { type: 'string' },
        seed: { type: 'string' },
        towns: { type: 'string' },
        database: { type: 'string' },
        'if-empty': { type: 'boolean' },
        bulk: { type: 'string' },
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
  const scale = readScaleOption(values.scale, DEFAULT_SCALE, USAGE);
  if (scale === undefined) return 2;
  const mode = values.progress ?? 'auto';
  if (!['auto', 'bar', 'lines', 'none'].includes(mode)) {
    console.error(`--progress must be auto, bar, lines or none, got "${mode}"`);
    return 2;
  }
  const bulk = values.bulk ?? 'auto';
  if (bulk !== 'auto' && bulk !== 'always' && bulk !== 'never') {
    console.error(`--bulk must be auto, always or never, got "${bulk}"`);
    return 2;
  }
  const towns = readTownsOption(values.towns);
  const url = values.database || process.env.DATABASE_URL || DEFAULT_DATABASE_URL;

  const client = new Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    console.error(`Cannot connect to PostgreSQL at ${redactUrl(url)}: ${(err as Error).message}`);
    return 1;
  }
  try {
    const { rows } = await client.query(`SELECT to_regclass('geo.addresses') IS NOT NULL AS migrated`);
    if (!rows[0].migrated) {
      console.error(`${redactUrl(url)} has no geo schema: run npm run db:migrate (or npm start) first.`);
      return 1;
    }
    if (values['if-empty']) {
      const { rows: any } = await client.query('SELECT EXISTS (SELECT 1 FROM geo.addresses) AS has');
      if (any[0].has) {
        print(
          'Geodata: geo.addresses already has rows, nothing generated (npm run geo:generate replaces them).',
        );
        return 0;
      }
    }

    const seed = values.seed ?? DEFAULT_SEED;
    print(
      `Generating geodata into ${redactUrl(url)}: ${figure(scale)} addresses, seed ${seed}${towns?.length ? `, towns ${towns.join(', ')}` : ''}`,
    );
    const reporter = createReporter(mode, scale);
    let result;
    try {
      result = await generateGeodata(client, {
        scale,
        seed,
        towns,
        bulk,
        onProgress: reporter.update,
      });
    } finally {
      reporter.stop();
    }
    const seconds = result.elapsedMs / 1000;
    const written = Object.values(result.counts).reduce((sum, count) => sum + count, 0);
    const removed = Object.values(result.removed).reduce((sum, count) => sum + count, 0);
    const made = result.counts.addresses - (result.resumedAddresses ?? 0);
    print(
      `Generated in ${seconds.toFixed(1)} s (${result.path} path): ${figure(written)} rows, ${figure(Math.round(made / seconds))} addresses/s` +
        (result.writeMs
          ? ` (${figure(Math.round(made / (result.writeMs / 1000)))} addresses/s writing, ${((result.elapsedMs - result.writeMs) / 1000).toFixed(1)} s indexing and vacuuming)`
          : '') +
        (result.resumedAddresses
          ? `; went on after ${figure(result.resumedAddresses)} addresses of a stopped run`
          : ''),
    );
    print(
      `  towns ${result.towns.length} (${result.towns.slice(0, 8).join(', ')}${result.towns.length > 8 ? ', ...' : ''})`,
    );
    for (const [table, count] of Object.entries(result.counts))
      print(`  ${table.padEnd(16)} ${figure(count).padStart(12)}`);
    print(
      `  reference places: 1 country, ${result.reference.provinces} provinces, ${result.reference.towns} towns` +
        (removed ? `; ${figure(removed)} rows of an earlier run removed` : ''),
    );
    return 0;
  } catch (err) {
    console.error(`geo:generate failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await client.end();
  }
}

/** A progress bar on a terminal; a line every 5 seconds in CI or a pipe; or nothing. */
function createReporter(
  mode: string,
  target: number,
): { update: (progress: GenerateProgress) => void; stop: () => void } {
  const useBar = mode === 'bar' || (mode === 'auto' && process.stdout.isTTY && !process.env.CI);
  if (mode === 'none') return { update: () => undefined, stop: () => undefined };
  const started = Date.now();
  // Addresses this process wrote a second (a resumed run's earlier addresses are not its own).
  const rateOf = (progress: GenerateProgress) =>
    (progress.addresses - progress.resumedAddresses) / Math.max(0.001, (Date.now() - started) / 1000);
  if (useBar) {
    const bar = new SingleBar({
      format:
        'addresses |{bar}| {percentage}% {value}/{total} | towns {towns}/{townCount} | {rate} addresses/s | {phase} | ETA {eta_formatted}',
      hideCursor: true,
    });
    bar.start(target, 0, { towns: 0, townCount: 0, rate: 0, phase: 'writing' });
    return {
      update: (progress) =>
        bar.update(Math.min(progress.addresses, target), {
          towns: progress.towns,
          townCount: progress.townCount,
          rate: figure(Math.round(rateOf(progress))),
          phase: progress.phase,
        }),
      stop: () => bar.stop(),
    };
  }
  let last = 0;
  return {
    update: (progress) => {
      if (Date.now() - last < 5000) return;
      last = Date.now();
      if (progress.phase !== 'writing') {
        print(`  ${progress.phase}: ${progress.step?.slice(0, 110) ?? ''}`);
        return;
      }
      const rate = rateOf(progress);
      const eta = Math.max(0, target - progress.addresses) / Math.max(rate, 1);
      print(
        `  ${figure(progress.addresses)} of ${figure(target)} addresses, towns ${progress.towns}/${progress.townCount}, ${figure(progress.rows)} rows, ${figure(Math.round(rate))} addresses/s, ETA ${Math.floor(eta / 60)} min ${Math.round(eta % 60)} s`,
      );
    },
    stop: () => undefined,
  };
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
