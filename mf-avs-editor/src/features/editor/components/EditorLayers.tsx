import { useEffect, useRef, useState } from 'react';
import type Feature from 'ol/Feature';
import GeoJSON from 'ol/format/GeoJSON';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import { Circle, Fill, RegularShape, Stroke, Style, Text } from 'ol/style';
import type { FeatureLike } from 'ol/Feature';
import type { DisplayDataAnswer, EditorAddress, EditorParcel, EditorPoi } from '@portal/contracts';
import { investigateDisabled, unAddressableDisabled } from '@portal/domain';
import { useMapLayer, useOlMap } from '@portal/web-kit';

/** What a click on the map picked: an address or a POI (the marker popup is the marker's own). */
export type Picked = { kind: 'address'; id: string } | { kind: 'poi'; id: string };

const format = new GeoJSON({ featureProjection: 'EPSG:3857', dataProjection: 'EPSG:4326' });
const read = (collection: { data: { features: unknown[] } }) =>
  format.readFeatures({ type: 'FeatureCollection', features: collection.data.features }) as Feature[];

// ------------------------------------------------------------------ styles

const parcelStyle = (parcel: EditorParcel & { selected: boolean }) => {
  const investigating = investigateDisabled(parcel);
  const unaddressable = unAddressableDisabled(parcel);
  return new Style({
    stroke: new Stroke({
      color: parcel.selected ? '#ffca28' : unaddressable ? '#757575' : investigating ? '#ef6c00' : '#2e7d32',
      width: parcel.selected ? 3 : 1.5,
      lineDash: investigating || unaddressable ? [6, 4] : undefined,
    }),
    fill: new Fill({ color: parcel.selected ? 'rgba(255, 202, 40, 0.08)' : 'rgba(76, 175, 80, 0.06)' }),
    zIndex: parcel.selected ? 2 : 1,
  });
};

/** Each voronoi area its own soft colour (from its first address id), so neighbouring areas differ. */
const VORONOI_COLOURS = [
  '#42a5f5',
  '#ab47bc',
  '#26a69a',
  '#ffa726',
  '#ec407a',
  '#7e57c2',
  '#9ccc65',
  '#8d6e63',
];
const voronoiStyle = (addressIds: string[]) => {
  const seed = addressIds[0] ?? '0';
  const colour = VORONOI_COLOURS[Number(seed.slice(-3)) % VORONOI_COLOURS.length] ?? VORONOI_COLOURS[0];
  return new Style({
    fill: new Fill({ color: `${colour}33` }),
    stroke: new Stroke({ color: colour, width: 1, lineDash: [4, 3] }),
  });
};

/** Address points by quality code (spec 03 §5): the higher the code, the warmer the colour. */
const QUALITY_COLOURS: Record<string, string> = {
  CNF: '#1565c0',
  EST: '#00838f',
  DDS: '#558b2f',
  VR: '#f9a825',
  SV: '#c62828',
};
const addressStyle = (address: EditorAddress, selected: boolean) =>
  new Style({
    image: new Circle({
      radius: selected ? 8 : 6,
      fill: new Fill({ color: QUALITY_COLOURS[address.qualityCode] ?? '#546e7a' }),
      stroke: new Stroke({ color: address.official ? '#ffd600' : '#fff', width: address.official ? 3 : 2 }),
    }),
    text: new Text({
      text: address.unit ? `${address.unit}` : address.houseNumber,
      offsetY: -14,
      font: 'bold 12px sans-serif',
      fill: new Fill({ color: '#212121' }),
      stroke: new Stroke({ color: '#fff', width: 3 }),
    }),
    zIndex: selected ? 20 : 10,
  });

const POI_POINTS: Record<number, { points: number; angle: number; radius: number }> = {
  10000: { points: 4, angle: Math.PI / 4, radius: 8 },
  10500: { points: 3, angle: 0, radius: 9 },
  11000: { points: 4, angle: 0, radius: 6 },
};
const poiStyle = (poi: EditorPoi, selected: boolean) =>
  new Style({
    image: new RegularShape({
      ...(POI_POINTS[poi.poiType] ?? POI_POINTS[10000]),
      fill: new Fill({ color: '#6a1b9a' }),
      stroke: new Stroke({ color: selected ? '#ffd600' : '#fff', width: 2 }),
    }),
    text: new Text({
      text: poi.name,
      offsetY: 16,
      font: '11px sans-serif',
      fill: new Fill({ color: '#4a148c' }),
      stroke: new Stroke({ color: '#fff', width: 3 }),
    }),
    zIndex: selected ? 20 : 15,
  });

// ------------------------------------------------------------------ layers

const layer = (zIndex: number) => new VectorLayer({ source: new VectorSource(), zIndex });

/**
 * The editor's layers over the base map (spec 03 §2): parcels (the one under the marker highlighted),
 * their voronoi areas, addresses (coloured by quality, OFA ringed) and POIs; a click on an address or a
 * POI picks it (its popup opens) unless `picking` is off (while measuring, a click places a point).
 */
export function EditorLayers({
  data,
  picked,
  onPick,
  parcelSource,
  picking = true,
}: {
  data: DisplayDataAnswer | undefined;
  picked: Picked | null;
  onPick: (picked: Picked) => void;
  /** The parcels' source, when the caller needs their outlines too (measurements snap to them). */
  parcelSource?: VectorSource;
  picking?: boolean;
}) {
  const map = useOlMap();
  const [parcels] = useState(
    () => new VectorLayer({ source: parcelSource ?? new VectorSource(), zIndex: 1 }),
  );
  const [voronoi] = useState(() => layer(2));
  const [addresses] = useState(() => layer(10));
  const [pois] = useState(() => layer(11));
  useMapLayer(parcels);
  useMapLayer(voronoi);
  useMapLayer(addresses);
  useMapLayer(pois);

  useEffect(() => {
    const fill = (target: VectorLayer<VectorSource>, features: Feature[]) => {
      const source = target.getSource()!;
      source.clear();
      source.addFeatures(features);
    };
    fill(parcels, data ? read(data.parcelData) : []);
    fill(voronoi, data ? read(data.voronoiData) : []);
    fill(addresses, data ? read(data.addressData) : []);
    fill(pois, data ? read(data.poiData) : []);
  }, [data, parcels, voronoi, addresses, pois]);

  useEffect(() => {
    const props = (feature: FeatureLike) => feature.getProperties();
    parcels.setStyle((feature) => parcelStyle(props(feature) as EditorParcel & { selected: boolean }));
    voronoi.setStyle((feature) => voronoiStyle((props(feature).addressIds as string[]) ?? []));
    addresses.setStyle((feature) =>
      addressStyle(
        props(feature) as EditorAddress,
        picked?.kind === 'address' && picked.id === String(feature.getId()),
      ),
    );
    pois.setStyle((feature) =>
      poiStyle(props(feature) as EditorPoi, picked?.kind === 'poi' && picked.id === String(feature.getId())),
    );
  }, [picked, parcels, voronoi, addresses, pois]);

  const onPickRef = useRef(onPick);
  const pickingRef = useRef(picking);
  useEffect(() => {
    onPickRef.current = onPick;
    pickingRef.current = picking;
  });
  useEffect(() => {
    const listener = (event: { pixel: number[] }) => {
      if (!pickingRef.current) return;
      let hit: Picked | null = null;
      map.forEachFeatureAtPixel(
        event.pixel,
        (feature, hitLayer) => {
          hit = { kind: hitLayer === pois ? 'poi' : 'address', id: String(feature.getId()) };
          return true;
        },
        { hitTolerance: 4, layerFilter: (candidate) => candidate === addresses || candidate === pois },
      );
      if (hit) onPickRef.current(hit);
    };
    map.on('singleclick', listener);
    return () => map.un('singleclick', listener);
  }, [map, addresses, pois]);
  return null;
}
