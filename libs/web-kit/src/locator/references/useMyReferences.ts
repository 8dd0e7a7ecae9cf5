import { useMemo } from 'react';
import type { MyReferencesAnswer } from '@portal/contracts';
import { formReferences, type FormReference } from './references';
import { useMyReferencesQuery } from './referencesApi';

export interface MyReferences {
  /** The form's fields, in order (none until loaded, or when the group has none). */
  fields: FormReference[];
  /** What the service answered, once it has. */
  data: MyReferencesAnswer | undefined;
  isLoading: boolean;
  isError: boolean;
}

/** Loads the user's reference fields (GET users/me/references) unless `skip`. */
export function useMyReferences({ skip = false }: { skip?: boolean } = {}): MyReferences {
  const query = useMyReferencesQuery(undefined, { skip });
  const fields = useMemo(() => formReferences(query.data?.references ?? []), [query.data]);
  return { fields, data: query.data, isLoading: query.isLoading, isError: query.isError };
}
