/**
 * The group's references as the request form shows them and both the form and the server check them
 * (spec 01 §3 "Group references", §5 "General Info step"), and as lists show them ("Label: value").
 * Here, in contracts, so the browser and services/requests cannot drift.
 */

/** One reference field of the request form. */
export interface ReferenceField {
  label: string;
  key: string;
  required: boolean;
  /** The pattern a required value must match, or null. */
  pattern: string | null;
  /** Shown when a required value is empty or does not match, or null (then a default message). */
  message: string | null;
}

export const REFERENCE_TEXT = {
  optionalSuffix: ' (optional)',
  placeholder: (label: string) => `Please provide ${label}`,
  empty: (label: string) => `${label} may not be empty.`,
  mismatch: (label: string) => `${label} is not valid.`,
  unknown: (key: string) => `'${key}' is not a reference of your group.`,
} as const;

/**
 * The fields of a reference list in order (by position, index 2, then list order): entries with 7 items
 * whose last is true are hidden and dropped; malformed entries (no label) are skipped.
 */
export function referenceFields(entries: readonly unknown[] | null | undefined): ReferenceField[] {
  const fields: { field: ReferenceField; position: number; index: number }[] = [];
  (entries ?? []).forEach((entry, index) => {
    if (!Array.isArray(entry)) return;
    const [label, key, position, required, pattern, message, hidden] = entry as unknown[];
    if (hidden === true) return;
    if (typeof label !== 'string' || label.trim() === '') return;
    const name = label.trim();
    fields.push({
      field: {
        label: name,
        key: typeof key === 'string' && key.trim() !== '' ? key.trim() : name,
        required: required === true,
        pattern: typeof pattern === 'string' && pattern !== '' ? pattern : null,
        message: typeof message === 'string' && message.trim() !== '' ? message : null,
      },
      position: typeof position === 'number' ? position : index,
      index,
    });
  });
  return fields.sort((a, b) => a.position - b.position || a.index - b.index).map(({ field }) => field);
}

/**
 * A request's client references as people read them (issue 22: never raw JSON): `Label: value` for each
 * reference with a value, in the group's order (`fields`: referenceFields of the group's list), then any
 * key the group no longer defines under its own name, joined by `separator`. Values may be an object of
 * key → value or its JSON text (a request's reference_string).
 */
export function referencesText(
  values: Readonly<Record<string, unknown>> | string | null | undefined,
  fields: readonly { key: string; label: string }[] = [],
  separator = ', ',
): string {
  let object: Record<string, unknown> = {};
  if (typeof values === 'string') {
    const text = values.trim();
    if (text === '') return '';
    // Only text in braces can be a JSON object; anything else is shown as written. Most stored references
    // are plain text (a claim number), and a JSON.parse that throws costs a thrown error per row: on a
    // 1 000-row page that was 40 % of the service's time.
    if (!text.startsWith('{')) return text;
    try {
      // Text that starts with a brace parses to an object or not at all.
      object = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return text; // free text, not JSON: shown as written
    }
  } else object = { ...(values ?? {}) };
  const filled = (value: unknown) =>
    value !== null && value !== undefined && typeof value !== 'object' && String(value).trim() !== '';
  const lines: string[] = [];
  const named = new Set<string>();
  for (const field of fields) {
    named.add(field.key);
    if (filled(object[field.key])) lines.push(`${field.label}: ${String(object[field.key]).trim()}`);
  }
  for (const [key, value] of Object.entries(object))
    if (!named.has(key) && filled(value)) lines.push(`${key}: ${String(value).trim()}`);
  return lines.join(separator);
}

/** The label the form shows: optional references get ' (optional)'. */
export const referenceLabel = (field: ReferenceField) =>
  field.required ? field.label : `${field.label}${REFERENCE_TEXT.optionalSuffix}`;

/**
 * The problem with one value, or null: a required reference must be non-empty and match its pattern,
 * failing with its own message (spec 01 §5). Optional references are not checked. A pattern that does not
 * compile (the groups editor refuses those) is not held against the user.
 */
export function referenceProblem(field: ReferenceField, value: string | undefined | null): string | null {
  if (!field.required) return null;
  const text = (value ?? '').trim();
  if (text === '') return field.message ?? REFERENCE_TEXT.empty(field.label);
  if (field.pattern === null) return null;
  let pattern: RegExp;
  try {
    pattern = new RegExp(field.pattern);
  } catch {
    return null;
  }
  return pattern.test(text) ? null : (field.message ?? REFERENCE_TEXT.mismatch(field.label));
}

/** Every problem with a form's reference values, in field order (empty when they are all right). */
export function referenceProblems(
  fields: readonly ReferenceField[],
  values: Readonly<Record<string, string | undefined>>,
): string[] {
  return fields.flatMap((field) => referenceProblem(field, values[field.key]) ?? []);
}
