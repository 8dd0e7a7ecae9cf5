/**
 * A town's names: its suburbs (the centre, the places it absorbed, extensions of earlier suburbs, then
 * names by kind of suburb), its streets (the main street names first, unique within a suburb) and its
 * estates, each drawn from the town's own decks so names repeat only after a list went round.
 */
import {
  AFRIKAANS_BASES,
  AFRIKAANS_STREET_TYPES,
  ESTATE_KINDS,
  ESTATE_NAMES,
  MAIN_STREET_NAMES,
  STREET_NAMES,
  STREET_TYPES,
  suburbNamesFor,
  type SuburbStyle,
} from '../names';
import { Deck, Random } from '../random';
import { type TownSite } from './context';

export class TownNames {
  private readonly streetDeck: Deck<string>;
  private readonly suburbDecks = new Map<string, Deck<string>>();
  private readonly estateDeck: Deck<string>;
  private readonly usedSuburbNames = new Map<string, number>();
  private readonly suburbBases: string[] = [];

  /** `random` is the town's own stream: the main street names are shuffled from it. */
  constructor(
    private readonly site: TownSite,
    random: Random,
  ) {
    const { seed } = site.context;
    this.streetDeck = new Deck(STREET_NAMES, Random.of(seed, 'streets', site.id));
    this.streetDeck.putOnTop(random.shuffled(MAIN_STREET_NAMES));
    this.estateDeck = new Deck(
      ESTATE_NAMES.flatMap((name) => ESTATE_KINDS.map((kind) => `${name} ${kind}`)),
      Random.of(seed, 'estates', site.id),
    );
  }

  /** The name of the town's suburb number `suburbIndex` (0 is the centre). */
  suburbName(style: SuburbStyle, random: Random, suburbIndex: number): string {
    if (suburbIndex === 0) return `${this.site.name} Central`;
    // An extension of an earlier suburb now and then ("Thembalethu Extension 2").
    if (this.suburbBases.length > 1 && random.chance(style === 'township' ? 0.3 : 0.12)) {
      return this.uniqueSuburbName(random.pick(this.suburbBases.slice(1)), true);
    }
    // The places absorbed into this town first (Cape Town's Rondebosch, Claremont...).
    const absorbed = this.site.context.plan.absorbed;
    if (style !== 'township' && absorbed.length)
      return this.uniqueSuburbName(absorbed.shift() as string, false);
    let deck = this.suburbDecks.get(style);
    if (!deck) {
      deck = new Deck(
        suburbNamesFor(style),
        Random.of(this.site.context.seed, 'suburbs', this.site.id, style),
      );
      this.suburbDecks.set(style, deck);
    }
    return this.uniqueSuburbName(deck.draw(), false);
  }

  /** A street name not in `taken` (which it joins); a perimeter street is a drive, road or crescent more often. */
  streetName(random: Random, perimeter: boolean, taken: Set<string>): string {
    for (;;) {
      const base = this.streetDeck.draw();
      const province = this.site.context.plan.town.province.code;
      let name: string;
      if (AFRIKAANS_BASES.has(base) && ['WC', 'NC', 'FS'].includes(province) && random.chance(0.3)) {
        name = `${base}${random.weighted(AFRIKAANS_STREET_TYPES)}`;
      } else {
        const type = perimeter
          ? random.weighted<string>([
              ['Drive', 4],
              ['Road', 4],
              ['Crescent', 2],
              ['Way', 1],
              ['Street', 3],
            ])
          : random.weighted(STREET_TYPES);
        name = `${base} ${type}`;
      }
      if (!taken.has(name)) {
        taken.add(name);
        return name;
      }
    }
  }

  estateName(): string {
    return this.estateDeck.draw();
  }

  private uniqueSuburbName(base: string, extension: boolean): string {
    const used = this.usedSuburbNames.get(base);
    if (used === undefined && !extension) {
      this.usedSuburbNames.set(base, 1);
      this.suburbBases.push(base);
      return base;
    }
    const next = (used ?? 1) + 1;
    this.usedSuburbNames.set(base, next);
    return `${base} Extension ${next - 1}`;
  }
}
