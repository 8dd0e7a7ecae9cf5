/**
 * A worker thread of the bulk path (threads.ts): lays out the towns it is given and writes each with COPY
 * in a transaction of its own connection, then waits to be told to commit it (towns commit in plan order,
 * so the run's checkpoint stays "the first N towns") or to lay it out again (the town before it passed on
 * a shortfall other than the one assumed). Ids come from counters shared by all workers (Atomics), so
 * every batch's ids are its own whichever thread writes it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Client } from 'pg';
import { createLandTest } from '../reference/south-africa';
import { emptyCounts } from './batch';
import { copyBatch, ID_TABLES, type IdAllocator } from './bulk';
import { townBatches, townContext, type WorldRun } from './layout';
import { type CopyCapableClient } from './copy';
import { TownLayout } from './town';
import { type FromWorker, type ToWorker, WORKER_APPLICATION_NAME, type WorkerSetup } from './threads';

const setup = workerData as WorkerSetup;
const port = parentPort as NonNullable<typeof parentPort>;
const post = (message: FromWorker) => port.postMessage(message);

const run: WorldRun = {
  seed: setup.seed,
  plans: setup.plans,
  isLand: createLandTest(setup.outline),
  townId: (_plan, index) => setup.townIds[index],
  coverage: (_plan, index) => setup.coverage[index],
};
const ids = new BigInt64Array(setup.ids);
const take: IdAllocator = (table, rows) => Number(Atomics.add(ids, ID_TABLES.indexOf(table), BigInt(rows)));

const client = new Client({
  ...setup.connection,
  password: setup.connection.password ?? undefined,
  application_name: WORKER_APPLICATION_NAME,
});
const fail = (err: unknown) => {
  post({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  // The connection (and its open transaction) goes with the thread; nothing half-written is committed.
  client.end().catch(() => undefined);
};
client.on('error', fail);
let queue: Promise<unknown> = client
  .connect()
  // The town's transaction is the checkpoint: losing the last commits in a crash loses only towns redone.
  .then(() => client.query('SET synchronous_commit = off'));

port.on('message', (message: ToWorker) => {
  queue = queue.then(() => handle(message)).catch(fail);
});

async function handle(message: ToWorker): Promise<void> {
  switch (message.type) {
    case 'town':
      return layOutTown(message.index, message.shortfall);
    case 'redo':
      await client.query('ROLLBACK');
      return layOutTown(message.index, message.shortfall);
    case 'commit':
      await client.query(
        `UPDATE geo.import_runs SET loaded = jsonb_build_object('bulk', $2::jsonb) WHERE id = $1`,
        [setup.runId, message.checkpoint],
      );
      await client.query('COMMIT');
      return post({ type: 'committed', index: message.index });
    case 'stop':
      await client.end();
      return port.close();
  }
}

async function layOutTown(index: number, shortfall: number): Promise<void> {
  await client.query('BEGIN');
  const layout = new TownLayout(townContext(run, index, shortfall));
  const counts = emptyCounts();
  // One batch is copied while the next is laid out.
  let writing: Promise<unknown> = Promise.resolve();
  for (const batch of townBatches(layout, setup.batchRows)) {
    if (!batch) {
      await new Promise(setImmediate); // lets the COPY in flight be sent and answered
      continue;
    }
    await writing;
    post({ type: 'progress', index, addresses: counts.addresses });
    writing = copyBatch(client as unknown as CopyCapableClient, batch, take, counts, setup.formats);
    writing.catch(() => undefined); // awaited (and thrown) at the next batch or at the town's end
  }
  await writing;
  post({ type: 'written', index, shortfall, produced: layout.produced, counts });
}
