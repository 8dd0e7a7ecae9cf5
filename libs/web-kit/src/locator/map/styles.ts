import { Circle, Fill, Stroke, Style } from 'ol/style';

// Spec 01 §9's parcel style (green fill at opacity 0.5) and area style (suburb, postal code, marker area;
// black fill at opacity 0.25) are the map's own (map/layers.ts): plain style objects, no map context.
export { parcelStyle as PARCEL_STYLE, areaStyle as AREA_STYLE } from '../../map/layers';

export const MAIN_MARKER_STYLE = new Style({
  image: new Circle({
    radius: 9,
    fill: new Fill({ color: '#d32f2f' }),
    stroke: new Stroke({ color: '#ffffff', width: 3 }),
  }),
});

/** Spec 01 §9 zoom rules. */
export const ZOOM = {
  /** A parcel, an address or a selected GPS point. */
  place: 18,
  /** An area, a postal code or a marker's area. */
  area: 10,
  /** Fit-to-bounds never closer than this. */
  fitMax: 18,
} as const;
