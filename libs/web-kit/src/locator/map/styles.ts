import { Circle, Fill, Stroke, Style } from 'ol/style';

/** Spec 01 §9: parcel style, green fill at opacity 0.5 (as web-kit's parcel overlay). */
export const PARCEL_STYLE = new Style({
  fill: new Fill({ color: 'rgba(0, 128, 0, 0.5)' }),
  stroke: new Stroke({ color: 'rgb(0, 128, 0)', width: 2 }),
});

/** Spec 01 §9: area style (suburb, postal code, marker area), black fill at opacity 0.25. */
export const AREA_STYLE = new Style({
  fill: new Fill({ color: 'rgba(0, 0, 0, 0.25)' }),
  stroke: new Stroke({ color: 'rgb(0, 0, 0)', width: 2 }),
});

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
