import type { CreateRequestArgs as LocatorCreateRequestArgs } from '@portal/web-kit/locator';
import type { SaviRequestForm } from '../savi/requestForm';

// The address and imagery calls are the locator kit's (@portal/web-kit/locator), shared with every screen
// that picks a location; re-exported here for the screens of this remote.
export {
  useGeocodeQuery,
  useLazyGeocodeQuery,
  useSearchQuery,
  useLazySearchQuery,
  useSearchPostalQuery,
  useLazySearchPostalQuery,
  useReverseQuery,
  useLazyReverseQuery,
  useGeojsonQuery,
  useLazyGeojsonQuery,
  useCoverageQuery,
  useLazyCoverageQuery,
  useLazyImageUrlQuery,
  useMyReferencesQuery,
  type SearchArgs,
  type ReverseArgs,
} from '@portal/web-kit/locator';

// Request creation is the locator kit's too (shared with /avs and /iris).
export { useCreateRequestMutation, type CreateRequestAnswer } from '@portal/web-kit/locator';
export type CreateRequestArgs = LocatorCreateRequestArgs<SaviRequestForm>;
