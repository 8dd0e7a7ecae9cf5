import { referenceKey } from '@portal/domain';

/**
 * A group reference in the spec's list format (spec 01 §3, spec 03 §3): label, key, position, then
 * optional items (required flag, regex, message, hidden flag). The editor makes the four-item form
 * [label, key, position, true] and keeps the extra items of existing entries.
 */
export type ReferenceEntry = unknown[];

export const referenceLabel = (entry: ReferenceEntry) => String(entry[0] ?? '');
export const referenceKeyOf = (entry: ReferenceEntry) => String(entry[1] ?? '');

/** Why this label cannot be added, or null when it can. */
export function referenceLabelProblem(entries: readonly ReferenceEntry[], label: string): string | null {
  const trimmed = label.trim();
  // Spec 03 §5: a blank reference row cannot be added.
  if (trimmed === '') return 'Enter a label for the reference.';
  const key = referenceKey(trimmed);
  if (!/[A-Z]/.test(key)) return 'A reference label needs at least one letter.';
  if (entries.some((entry) => referenceKeyOf(entry) === key))
    return `There is already a reference with the key ${key}.`;
  return null;
}

/** Adds a reference made from its label (spec 03 §3); a label that cannot be added changes nothing. */
export function addReference(entries: readonly ReferenceEntry[], label: string): ReferenceEntry[] {
  if (referenceLabelProblem(entries, label) !== null) return [...entries];
  const trimmed = label.trim();
  return [...entries, [trimmed, referenceKey(trimmed), entries.length, true]];
}

/** Removes one reference; the positions of the others close the gap. */
export function removeReference(entries: readonly ReferenceEntry[], index: number): ReferenceEntry[] {
  return entries
    .filter((_entry, i) => i !== index)
    .map((entry, position) => [entry[0], entry[1], position, ...entry.slice(3)]);
}
