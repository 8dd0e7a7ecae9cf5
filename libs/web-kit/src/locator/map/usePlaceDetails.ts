import type { NamedGeometry, ReverseAnswer } from '@portal/contracts';
import { useGeojsonQuery, useReverseQuery } from '../locatorSearchApi';
import type { SearchOptionId } from '../searchOptions';
import type { SelectedPlace } from '../searchState';
import { useAvsOptions } from '../useLocatorSearch';

/** Result types that are areas: their shape is drawn (area style) and the map zooms to 10. */
export const AREA_TYPES = new Set(['postal', 'place']);

export const isAreaPlace = (place: SelectedPlace | null) => !!place?.item && AREA_TYPES.has(place.item.type);

export interface PlaceDetails {
  loading: boolean;
  /** The reverse geocode at the point (parcel, best address, area for marker searches); null for areas. */
  reverse: ReverseAnswer['result'] | null;
  /** The shape of the area: a chosen suburb or postal code, or the marker's area (spec 01 §2). */
  area: NamedGeometry | null;
  failed: boolean;
}

/**
 * What is known about the selected place: for an area result its shape (POST /api/avs/geojson), for
 * anything else the reverse geocode at its point with the wizard's search option (POST /api/avs/reverse),
 * which for a marker also answers the area around it.
 */
export function usePlaceDetails(place: SelectedPlace | null, option: SearchOptionId | null): PlaceDetails {
  const options = useAvsOptions();
  const area = isAreaPlace(place);
  const searchOption = place && !place.item ? 'marker' : (option ?? 'address');
  const reverse = useReverseQuery(
    place ? { lat: place.point.lat, lng: place.point.lng, searchOption, options } : { lat: 0, lng: 0 },
    { skip: !place || area },
  );
  const shape = useGeojsonQuery(
    place?.item ? { id: place.item.id, type: place.item.type, options } : { id: '', type: '' },
    { skip: !area },
  );
  if (!place) return { loading: false, reverse: null, area: null, failed: false };
  if (area) {
    return {
      loading: shape.isFetching,
      reverse: null,
      area: shape.data?.success ? shape.data.result : null,
      failed: shape.isError || shape.data?.success === false,
    };
  }
  const result = reverse.data?.success && !reverse.isFetching ? reverse.data.result : null;
  return {
    loading: reverse.isFetching,
    reverse: result,
    area: searchOption === 'marker' ? (result?.area ?? null) : null,
    failed: reverse.isError || reverse.data?.success === false,
  };
}
