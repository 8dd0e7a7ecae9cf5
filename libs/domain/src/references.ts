/**
 * Group references (spec 01 §3): a list of entries, each an array where index 0 is the label, 1 the key,
 * 3 the required flag, 4 a regex, 5 the message and 6 the hidden flag. Spec 03 §3 describes the shorter,
 * four-item form made by the groups grid: label, key, position, true.
 */
export type GroupReference = [string, string, ...unknown[]];

/** Spec 03 §3: the key is the label with non-letters replaced by underscore, upper-cased. */
export const referenceKey = (label: string) => label.replace(/[^A-Za-z]/g, '_').toUpperCase();
