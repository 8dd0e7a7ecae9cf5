import { useSearchParams } from '@portal/web-kit';

/** Spec 02 §2.2: the checklists (and the QC launcher's satellite map) take requestID, lat and lng from the address. */
export function useChecklistParams() {
  const [search] = useSearchParams();
  const lat = Number(search.get('lat'));
  const lng = Number(search.get('lng'));
  return {
    requestID: search.get('requestID') ?? '',
    point:
      search.get('lat') && search.get('lng') && Number.isFinite(lat) && Number.isFinite(lng)
        ? { lat, lng }
        : null,
  };
}
