/**
 * The coordinates of every node of an extract, for building way geometries (a PBF lists all nodes before
 * the ways that refer to them). Kept in typed arrays, 16 bytes a node: the id as a float64 (exact up to
 * 2^53) and latitude/longitude as int32 in 1e-7 degrees (about 1 cm), in chunks of 1 Mi nodes so growing
 * never copies. Lookups are binary searches: over the chunks' first ids, then within one chunk.
 *
 * Memory bound: 16 bytes × nodes in the extract (South Africa's ≈ 60 million nodes: ≈ 1 GB), plus, only for
 * an input not sorted by id (osmium and Geofabrik extracts are sorted), a one-off sort that briefly needs
 * the same again and 4 bytes a node.
 */
const CHUNK = 1 << 20;

export class NodeCoordinates {
  private ids: Float64Array[] = [];
  private lats: Int32Array[] = [];
  private lons: Int32Array[] = [];
  /** Entries in the last chunk. */
  private fill = CHUNK;
  private count = 0;
  private lastId = -Infinity;
  private sorted = true;
  private firstIds: Float64Array | undefined;

  get size(): number {
    return this.count;
  }

  /** Bytes held by the arrays (for the memory bound's check in tests and logs). */
  get bytes(): number {
    return this.ids.length * CHUNK * 16;
  }

  add(id: number, lat: number, lon: number): void {
    if (this.fill === CHUNK) {
      this.ids.push(new Float64Array(CHUNK));
      this.lats.push(new Int32Array(CHUNK));
      this.lons.push(new Int32Array(CHUNK));
      this.fill = 0;
    }
    const chunk = this.ids.length - 1;
    this.ids[chunk][this.fill] = id;
    this.lats[chunk][this.fill] = Math.round(lat * 1e7);
    this.lons[chunk][this.fill] = Math.round(lon * 1e7);
    this.fill++;
    this.count++;
    if (id <= this.lastId) this.sorted = false;
    this.lastId = id;
    this.firstIds = undefined;
  }

  /** [lon, lat] of a node, or undefined when the extract does not have it. */
  get(id: number): [number, number] | undefined {
    if (!this.count) return undefined;
    if (!this.sorted) this.sort();
    const firsts = (this.firstIds ??= Float64Array.from(this.ids, (ids) => ids[0]));
    // The last chunk whose first id is <= id.
    let low = 0;
    let high = firsts.length - 1;
    if (id < firsts[0]) return undefined;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (firsts[mid] <= id) low = mid;
      else high = mid - 1;
    }
    const ids = this.ids[low];
    let from = 0;
    let to = (low === this.ids.length - 1 ? this.fill : CHUNK) - 1;
    while (from <= to) {
      const mid = (from + to) >> 1;
      const value = ids[mid];
      if (value === id) return [this.lons[low][mid] / 1e7, this.lats[low][mid] / 1e7];
      if (value < id) from = mid + 1;
      else to = mid - 1;
    }
    return undefined;
  }

  /** Puts the nodes in id order (inputs not sorted by id only). */
  private sort(): void {
    const n = this.count;
    const at = (i: number) => this.ids[Math.floor(i / CHUNK)][i % CHUNK];
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => at(a) - at(b));
    const ids = this.ids;
    const lats = this.lats;
    const lons = this.lons;
    this.ids = [];
    this.lats = [];
    this.lons = [];
    this.fill = CHUNK;
    this.count = 0;
    this.lastId = -Infinity;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      const chunk = Math.floor(i / CHUNK);
      const offset = i % CHUNK;
      this.add(ids[chunk][offset], lats[chunk][offset] / 1e7, lons[chunk][offset] / 1e7);
    }
    this.sorted = true;
  }
}
