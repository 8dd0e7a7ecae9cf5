import { referenceFields, referenceLabel, referenceProblem, type ReferenceField } from '@portal/contracts';

/**
 * The request form's reference fields and their checks (spec 01 §3, §5), shared by every screen that logs a
 * request (mf-locator's /savi, mf-iris's /iris). The rules are the requests contract's
 * (libs/contracts/src/requests.ts), which services/requests applies too: the form and the server cannot
 * disagree about a value.
 */
export type FormReference = ReferenceField;

/** Fields from the group's entries (spec 01 §3): hidden 7-item entries and malformed ones dropped. */
export const formReferences = (entries: readonly unknown[] | null | undefined): FormReference[] =>
  referenceFields(entries);

/** The label as the form shows it: optional references end with ' (optional)' (spec 01 §5). */
export const fieldLabel = (field: FormReference) => referenceLabel(field);

/**
 * Spec 01 §5: a required reference must be non-empty and match its own regex, failing with its own
 * message. Answers the error per key; an empty object means valid.
 */
export function validateReferences(
  fields: readonly FormReference[],
  values: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const problem = referenceProblem(field, values[field.key]);
    if (problem) errors[field.key] = problem;
  }
  return errors;
}

/**
 * The request's `reference` map as PUT /api/v1.0/request/ takes it: the values of the form's fields,
 * trimmed, the empty ones left out (only filled-in values are sent and stored).
 */
export function referenceMap(
  fields: readonly FormReference[],
  values: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  return trimmedReferences(Object.fromEntries(fields.map((field) => [field.key, values[field.key] ?? ''])));
}

/** A key → value map trimmed, its empty values left out. */
export function trimmedReferences(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values)
      .map(([key, value]) => [key, value.trim()] as const)
      .filter(([, value]) => value !== ''),
  );
}

/** The request's reference parts: the map and the same as a JSON text (`referenceString`). */
export function requestReferences(references: Readonly<Record<string, string>>): {
  reference: Record<string, string>;
  referenceString: string;
} {
  const reference = trimmedReferences(references);
  return { reference, referenceString: JSON.stringify(reference) };
}
