import { SAVI_TEXT } from './texts';

/** One reference field of the request form, read from a group reference entry (spec 01 §3). */
export interface FormReference {
  label: string;
  key: string;
  required: boolean;
  /** Null when the entry has none (or an invalid one: then any non-empty value passes). */
  pattern: RegExp | null;
  message: string;
}

/**
 * The form's fields from the group's entries: index 0 label, 1 key, 3 required, 4 regex, 5 message,
 * 6 hidden. A 7-item entry whose last item is true is dropped (spec 01 §5); so are malformed ones.
 */
export function formReferences(entries: readonly unknown[]): FormReference[] {
  const fields: FormReference[] = [];
  for (const entry of entries) {
    if (!Array.isArray(entry) || entry.length < 2) continue;
    if (entry.length === 7 && entry[6] === true) continue;
    const [label, key] = entry;
    if (typeof label !== 'string' || !label.trim() || typeof key !== 'string' || !key.trim()) continue;
    fields.push({
      label: label.trim(),
      key: key.trim(),
      required: entry[3] === true,
      pattern: compile(entry[4]),
      message: typeof entry[5] === 'string' && entry[5].trim() ? entry[5].trim() : '',
    });
  }
  return fields;
}

function compile(source: unknown): RegExp | null {
  if (typeof source !== 'string' || !source) return null;
  try {
    return new RegExp(source);
  } catch {
    console.warn('[savi] a group reference has an invalid regex and is checked for presence only:', source);
    return null;
  }
}

/** The label as the form shows it: optional references end with ' (optional)' (spec 01 §5). */
export const fieldLabel = (field: FormReference) =>
  field.required ? field.label : `${field.label}${SAVI_TEXT.optionalSuffix}`;

/**
 * Spec 01 §5: a required reference must be non-empty and match its own regex, failing with its own
 * message. An optional one that is filled in must match its regex too (a wrong value is never sent).
 * Answers the error per key; an empty object means valid.
 */
export function validateReferences(
  fields: readonly FormReference[],
  values: Readonly<Record<string, string>>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = (values[field.key] ?? '').trim();
    const failure = field.message || SAVI_TEXT.invalid(field.label);
    if (!value) {
      if (field.required) errors[field.key] = field.message || SAVI_TEXT.notEmpty(field.label);
      continue;
    }
    if (field.pattern && !field.pattern.test(value)) errors[field.key] = failure;
  }
  return errors;
}
