/**
 * The generator is deterministic: the same seed and scale give the same rows, byte for byte. This test lays
 * out a small world in-process (no database), the way generateGeodata does (towns biggest first, a town's
 * shortfall passed to the next, suburbs then farms and imagery), and pins a hash of every row it would
 * write. Any change to a generated value (a name, a coordinate, an id, a count) changes the hash: when a
 * change is meant, say so in the commit and pin the new hash.
 *
 * Buildings have a history since issue 21 (dates, pools, demolished ones) drawn from streams of their own:
 * the second test pins today's buildings as they were before they had one (the hash pinned before issue
 * 21), so a change to the history can never move what stands today.
 */
import { createHash } from 'node:crypto';
import { type Batch } from './batch';
import { layOutWorld } from './testing';

function fingerprint(batch: Batch): { counts: Record<string, number>; sha256: string } {
  const tables = {
    suburbs: batch.suburbs,
    postalCodes: batch.postalCodes,
    streets: batch.streets,
    parcels: batch.parcels,
    addresses: batch.addresses,
    pois: batch.pois,
    unitPois: batch.unitPois,
    buildings: batch.buildings,
    farms: batch.farms,
    coverage: batch.coverage,
  };
  const hash = createHash('sha256');
  for (const [table, rows] of Object.entries(tables)) {
    hash.update(table);
    for (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
  }
  const counts = Object.fromEntries(Object.entries(tables).map(([table, rows]) => [table, rows.length]));
  return { counts, sha256: hash.digest('hex') };
}

/**
 * Today's buildings as rows were written before buildings had a history: the ones standing today that are
 * not new rows of the history (pools, demolished houses and sheds), without the life columns.
 */
function todaysBuildingsFingerprint(batch: Batch): { count: number; sha256: string } {
  const hash = createHash('sha256');
  let count = 0;
  for (const row of batch.buildings) {
    const [parcel, kind, levels, height, roof, geom, , demolishedOn, , , source, sourceId] = row;
    if (demolishedOn !== null || kind === 'pool') continue;
    hash.update(`${JSON.stringify([parcel, kind, levels, height, roof, geom, source, sourceId])}\n`);
    count += 1;
  }
  return { count, sha256: hash.digest('hex') };
}

describe('the generated world', () => {
  const world = layOutWorld('fingerprint', 3000);

  it('is byte for byte the one pinned here (seed "fingerprint", 3 000 addresses in three towns)', () => {
    expect(fingerprint(world)).toEqual({
      counts: PINNED_COUNTS,
      sha256: PINNED_SHA256,
    });
  });

  it('keeps today’s buildings where they stood before buildings had a history', () => {
    expect(todaysBuildingsFingerprint(world)).toEqual({
      count: 4694,
      sha256: 'cb7f36c1a54c3a61490d4de0889af611dfd13561ac78d3decdec93d6a6ef09f8',
    });
  });
});

const PINNED_COUNTS = {
  suburbs: 10,
  postalCodes: 10,
  streets: 117,
  parcels: 2870,
  addresses: 3035,
  pois: 68,
  unitPois: 336,
  buildings: 5025,
  farms: 72,
  coverage: 15,
};
const PINNED_SHA256 = '630000c581b7a7138d055c9508dbd85bcc61e88032b39e39c47fb1ce80462f0e';
