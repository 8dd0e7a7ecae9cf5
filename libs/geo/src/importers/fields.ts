/**
 * Which property of a feature or column of a CSV row holds a field. Each importer has defaults (lists of
 * the names the field usually goes by, matched without regard to case); callers override them with one
 * name (the CLI's --field name=PROPERTY), a list, or a function of the properties (shared-data, tests).
 */
export type Properties = Record<string, unknown>;
export type FieldSpec = string | readonly string[] | ((properties: Properties) => unknown);
export type FieldMapping<K extends string> = Partial<Record<K, FieldSpec>>;

/** The raw value of a field: the first named property that is present and not empty. */
export function fieldValue(properties: Properties, spec: FieldSpec | undefined): unknown {
  if (spec === undefined) return undefined;
  if (typeof spec === 'function') return spec(properties);
  const names = typeof spec === 'string' ? [spec] : spec;
  let lowered: Map<string, unknown> | undefined;
  for (const name of names) {
    let value = properties[name];
    if (value === undefined) {
      lowered ??= new Map(Object.entries(properties).map(([key, v]) => [key.toLowerCase(), v]));
      value = lowered.get(name.toLowerCase());
    }
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

/** A field as trimmed text; undefined when absent or blank. */
export function textField(properties: Properties, spec: FieldSpec | undefined): string | undefined {
  const value = fieldValue(properties, spec);
  if (value === undefined || value === null) return undefined;
  const text = (typeof value === 'object' ? JSON.stringify(value) : String(value)).trim();
  return text || undefined;
}

/**
 * A field as a whole number: undefined when absent, NaN when present but not a whole number (the caller
 * decides whether that rejects the row).
 */
export function integerField(properties: Properties, spec: FieldSpec | undefined): number | undefined {
  const value = fieldValue(properties, spec);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return Number.isInteger(value) ? value : Number.NaN;
  const text = String(value).trim();
  if (!text) return undefined;
  return /^[+-]?\d+$/.test(text) ? Number.parseInt(text, 10) : Number.NaN;
}

/** A field as a finite number: undefined when absent, NaN when present but not a number. */
export function numberField(properties: Properties, spec: FieldSpec | undefined): number | undefined {
  const value = fieldValue(properties, spec);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  const text = String(value).trim().replace(',', '.');
  if (!text) return undefined;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : Number.NaN;
}

/**
 * Names published in capitals ("GORDON'S BAY CDC", "AALWYNFLEUR") in the case people write them
 * ("Gordon's Bay CDC", "Aalwynfleur"). Text that already has lower case is left alone; words without a
 * vowel stay in capitals (abbreviations: CDC, KZN), short joining words go lower case.
 */
export function tidyName(text: string): string {
  if (/[a-z]/.test(text) || !/[A-Z]/.test(text)) return text.trim();
  const lowerWords = new Set(['of', 'and', 'the', 'van', 'der', 'de', 'du', 'le', 'la', 'en']);
  return text
    .trim()
    .toLowerCase()
    .split(/(\s+|-|\/|\()/)
    .map((word, i) => {
      if (!/[a-z]/.test(word)) return word;
      if (i > 0 && lowerWords.has(word)) return word;
      if (!/[aeiouy]/.test(word)) return word.toUpperCase();
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join('');
}
