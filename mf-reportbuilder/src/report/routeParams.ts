/**
 * Spec 02 §2.1: "When a route parameter (requestID, sectionID, improvementID) is missing, the screen uses
 * the value kept in session storage and stores any new value there." buildingID is kept the same way (the
 * building screens take it as they take the others). Pure: the storage is passed in.
 */

/** The parameters the report builder keeps. */
export const ROUTE_PARAMS = ['requestID', 'sectionID', 'buildingID', 'improvementID'] as const;
export type RouteParam = (typeof ROUTE_PARAMS)[number];

/** The session-storage key of a parameter. */
export const storageKey = (name: RouteParam) => `reportbuilder.${name}`;

export type ParamStorage = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * The parameters `names` from the query string, else from `storage`; a value given in the query string
 * (non-blank) is stored. A parameter found in neither is null. A storage that throws (blocked, full)
 * counts as empty.
 */
export function resolveRouteParams<N extends RouteParam>(
  query: URLSearchParams,
  names: readonly N[],
  storage: ParamStorage | null,
): Record<N, string | null> {
  const values = {} as Record<N, string | null>;
  for (const name of names) {
    const given = query.get(name)?.trim() ?? '';
    if (given !== '') {
      values[name] = given;
      try {
        storage?.setItem(storageKey(name), given);
      } catch {
        // Nothing to keep it in: the query string still gives it.
      }
      continue;
    }
    let kept: string | null = null;
    try {
      kept = storage?.getItem(storageKey(name)) ?? null;
    } catch {
      kept = null;
    }
    values[name] = kept !== null && kept.trim() !== '' ? kept : null;
  }
  return values;
}

/** The browser's session storage, or null where there is none. */
export function sessionStorageOrNull(): ParamStorage | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}
