import { useMemo } from 'react';
import { useSearchParams } from '@portal/web-kit';
import { resolveRouteParams, sessionStorageOrNull, type RouteParam } from './routeParams';

/** The screen's parameters per spec 02 §2.1 (query string, else session storage; new values stored). */
export function useRouteParams<N extends RouteParam>(names: readonly N[]): Record<N, string | null> {
  const [query] = useSearchParams();
  const key = names.join(',');
  // `names` is a constant list per screen: its joined key stands for it.
  return useMemo(() => resolveRouteParams(query, names, sessionStorageOrNull()), [query, key]);
}
