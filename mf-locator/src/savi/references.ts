import { referenceFields, referenceLabel, referenceProblem, type ReferenceField } from '@portal/contracts';

/**
 * The form's reference fields and their checks are the requests contract's (libs/contracts/src/requests.ts),
 * which services/requests applies too: the form and the server cannot disagree about a value.
 */
export type FormReference = ReferenceField;

/** Fields from the group's entries (spec 01 §3): hidden 7-item entries and malformed ones dropped. */
export const formReferences = (entries: readonly unknown[]): FormReference[] => referenceFields(entries);

/** The label as the form shows it: optional references end with ' (optional)' (spec 01 §5). */
export const fieldLabel = (field: FormReference) => referenceLabel(field);

/**
 * Spec 01 §5: a required reference must be non-empty and match its own regex, failing with its own
 * message. Answers the error per key; an empty object means valid.
 */
export function validateReferences(
  fields: readonly FormReference[],
  values: Readonly<Record<string, string>>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const problem = referenceProblem(field, values[field.key]);
    if (problem) errors[field.key] = problem;
  }
  return errors;
}
