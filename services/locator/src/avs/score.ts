import { STREET_TYPES } from '@portal/geo';

/**
 * How well a result matches what was typed, as a confidence 0..1. PostgreSQL's trigram word similarity
 * says how much of the query is found in a street's "name suburb town" text (typos and a half-typed last
 * word cost little); the factors here say what trigrams cannot: whether the street's own name was typed
 * at all (a town name alone matches every street in it), whether the house number, unit and postal code
 * agree.
 */

/** Street-type words: typing "street" says little about which street is meant. */
const GENERIC_WORDS = new Set([...STREET_TYPES, 'extension', 'north', 'south', 'east', 'west', 'main']);

/** Edit distance with transpositions (optimal string alignment): "chruch" is one edit from "church". */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, before[j - 2] + 1);
      }
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * How well one word of a name is matched by one typed word, 0..1: exactly, as the start of it while the
 * user is still typing (the last word only), or within a typo or two for its length.
 */
export function wordMatch(nameWord: string, typed: string, typedIsLast: boolean): number {
  if (nameWord === typed) return 1;
  if (typedIsLast && typed.length >= 2 && nameWord.startsWith(typed)) {
    return 0.75 + 0.25 * (typed.length / nameWord.length);
  }
  const longest = Math.max(nameWord.length, typed.length);
  if (longest < 4) return 0;
  const allowed = longest >= 8 ? 2 : 1;
  const distance = editDistance(nameWord, typed);
  return distance <= allowed ? 1 - distance / longest : 0;
}

/**
 * How much of a name (normalised words) the query (normalised words) contains, 0..1, each name word
 * weighted by how much it says: "church" counts, "street" a little.
 */
export function nameCoverage(nameWords: readonly string[], queryWords: readonly string[]): number {
  if (!nameWords.length || !queryWords.length) return 0;
  let total = 0;
  let found = 0;
  const last = queryWords.length - 1;
  for (const word of nameWords) {
    const weight = GENERIC_WORDS.has(word) ? 0.25 : 1;
    total += weight;
    let best = 0;
    for (let i = 0; i < queryWords.length && best < 1; i++) {
      best = Math.max(best, wordMatch(word, queryWords[i], i === last));
    }
    // A name written as one word ("Kerkstraat") typed as two ("kerk straat" -> "kerk street") or the other
    // way round is still that name.
    if (best < 1 && queryWords.length > 1) {
      for (let i = 0; i < last; i++) {
        best = Math.max(best, wordMatch(word, queryWords[i] + queryWords[i + 1], i + 1 === last) * 0.95);
      }
    }
    found += weight * best;
  }
  return found / total;
}

/** What the matched address says about the typed house number, unit and postal code. */
export interface AddressAgreement {
  /** A number was typed. */
  numberTyped: boolean;
  /** The address's house number is the typed one exactly ("12a" = "12A"). */
  exactNumber: boolean;
  /** Same number, other letter ("12" for "12A"). */
  sameNumber: boolean;
  /** |address number - typed number| when neither of the above, null when the street has no address. */
  gap: number | null;
  unitTyped: boolean;
  unitMatches: boolean;
  /** The address is a unit though none was typed. */
  unitUntyped: boolean;
  postalTyped: boolean;
  postalMatches: boolean;
}

/** The confidence factor of house number, unit and postal code, 0..1. */
export function agreementFactor(agreement: AddressAgreement): number {
  let factor = 1;
  if (agreement.numberTyped) {
    if (agreement.exactNumber) factor *= 1;
    else if (agreement.sameNumber) factor *= 0.93;
    // The nearest number on the street: the right street, the wrong house; less sure the further off.
    else if (agreement.gap !== null) factor *= 0.75 - Math.min(agreement.gap, 50) * 0.005;
    // A street without any address: the street is still worth showing, low.
    else factor *= 0.45;
  }
  if (agreement.unitTyped) factor *= agreement.unitMatches ? 1 : 0.85;
  else if (agreement.unitUntyped) factor *= 0.97;
  if (agreement.postalTyped) factor *= agreement.postalMatches ? 1 : 0.8;
  return factor;
}

/** A street's text match: how much of the query its text holds, and how much of its name was typed. */
export function streetTextScore(queryInText: number, nameCovered: number): number {
  return queryInText * (0.55 + 0.45 * nameCovered);
}

/** How much of the typed street name (complete words, followed by the street type) the name holds, 0..1. */
export function coreCoverage(coreWords: readonly string[], nameWords: readonly string[]): number {
  if (!coreWords.length || !nameWords.length) return 0;
  let found = 0;
  for (const typed of coreWords) {
    let best = 0;
    for (const word of nameWords) best = Math.max(best, wordMatch(word, typed, false));
    found += best;
  }
  return found / coreWords.length;
}

/**
 * How much of the area typed (suburb, town; normalised words) a street's suburb and town hold, 0..1, word
 * by word: each typed word as a whole word of them, as the start of one when it is the last typed ("bloem"
 * for Bloemfontein), or within a typo ("Prteoria", "Niegl", "Puarl"). Trigrams cannot see a typo in a
 * short town's name: "parl" shares more of its trigrams with "Phola Park" than a word-for-word reading
 * would, and "vrude" as many with Vredendal as with Vrede.
 */
export function areaCoverage(areaWords: readonly string[], placeWords: readonly string[]): number {
  if (!areaWords.length || !placeWords.length) return 0;
  let found = 0;
  const last = areaWords.length - 1;
  areaWords.forEach((typed, i) => {
    let best = 0;
    for (const word of placeWords) {
      // A town's name half typed ("ali"): how much of it is typed says nothing about which town is meant
      // (Alice or Aliwal North), the place's importance orders them.
      if (i === last && typed.length >= 3 && word.length > typed.length && word.startsWith(typed))
        best = Math.max(best, 0.9);
      else best = Math.max(best, wordMatch(word, typed, i === last));
    }
    found += best;
  });
  return found / areaWords.length;
}

/**
 * What a typed street type says: the street's own type typed ("Church St" for Church Street) agrees, no
 * type typed says nothing, another type typed ("Church Avenue" for Church Street) costs a little, as
 * namesakes of other types are common (Voortrekker Street and Voortrekker Avenue in one town).
 */
export function streetTypeFactor(typedType: string | undefined, nameWords: readonly string[]): number {
  if (!typedType || !STREET_TYPES.has(typedType)) return 1;
  const own = nameWords.at(-1);
  if (!own || !STREET_TYPES.has(own)) return 1;
  return own === typedType ? 1 : 0.9;
}

/**
 * A street's match when the query names it by its own name and an area: both ways round on the name (all
 * of the name typed, nothing typed that is not in the name), and the area typed found in its suburb and
 * town (a namesake in another town scores about half). Without an area typed, the name alone.
 */
export function namedStreetScore(
  nameCovered: number,
  coreCovered: number,
  areaInText: number | null,
): number {
  const name = 0.5 * nameCovered + 0.5 * coreCovered;
  return areaInText === null ? name : name * (0.4 + 0.6 * areaInText);
}

/** Clamped to 0..1 and rounded to 3 places (confidences are shown and compared, not computed on). */
export const confidence = (value: number): number =>
  Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
