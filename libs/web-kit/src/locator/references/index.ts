export {
  formReferences,
  fieldLabel,
  validateReferences,
  referenceMap,
  trimmedReferences,
  requestReferences,
  type FormReference,
} from './references';
export { referencesApi, useMyReferencesQuery } from './referencesApi';
export { useMyReferences, type MyReferences } from './useMyReferences';
export { ReferenceFields, type ReferenceFieldsProps } from './ReferenceFields';
