/**
 * TownLayout: lays out one town suburb by suburb (each on the next usable cell of its ground) until it has
 * its addresses, then its farms and imagery coverage. The parts it composes are in this folder, one per
 * kind of thing generated.
 */
import { type Batch } from '../batch';
import { Random } from '../random';
import { type TownContext, type TownSite, townSite } from './context';
import { layOutCoverage } from './coverage';
import { layOutFarms } from './farms';
import { TownGround } from './ground';
import { TownNames } from './naming';
import { layOutSuburb, type SuburbTown } from './suburb';

export class TownLayout {
  /** Addresses written so far. */
  produced = 0;
  private readonly site: TownSite;
  private readonly ground: TownGround;
  private readonly names: TownNames;
  private readonly suburbTown: SuburbTown;
  private suburbIndex = 0;
  private nextErf: number;

  constructor(context: TownContext) {
    this.site = townSite(context);
    const random = Random.of(context.seed, 'town', this.site.id);
    this.names = new TownNames(this.site, random);
    this.ground = new TownGround(this.site);
    this.nextErf = random.int(1, 300);
    this.suburbTown = { site: this.site, names: this.names, nextErfNumber: () => this.nextErf++ };
  }

  /** Lays out the next suburb into the batch; false when the town is complete (or out of ground). */
  nextSuburb(batch: Batch): boolean {
    const { target } = this.site.context.plan;
    if (this.produced >= target) return false;
    const cell = this.ground.nextCell();
    if (!cell) return false;
    const before = batch.addresses.length;
    layOutSuburb(batch, this.suburbTown, this.suburbIndex++, cell, target - this.produced);
    this.produced += batch.addresses.length - before;
    return true;
  }

  /** Farms around the town and its imagery coverage. */
  finish(batch: Batch): void {
    layOutFarms(batch, this.site, this.ground);
    layOutCoverage(batch, this.site);
  }
}
