import { useCallback, useEffect, useRef, useState } from 'react';
import type Feature from 'ol/Feature';
import type OlMap from 'ol/Map';
import Overlay from 'ol/Overlay';
import { getUid } from 'ol/util';
import type Geometry from 'ol/geom/Geometry';
import LineString from 'ol/geom/LineString';
import Polygon from 'ol/geom/Polygon';
import Draw, { type DrawEvent } from 'ol/interaction/Draw';
import KeyboardPan from 'ol/interaction/KeyboardPan';
import Modify, { type ModifyEvent } from 'ol/interaction/Modify';
import Snap from 'ol/interaction/Snap';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import {
  draftOf,
  figuresLabel,
  figuresOf,
  type MapMeasureKind,
  type MeasurementDraft,
} from './measureFigures';
import { measureKeyAction, type KeyLike } from './measureKeys';
import { measuredFeatureStyle, sketchStyle } from './measureStyles';
import { MEASURE_TEXT } from './texts';

/** Above the picture and the building outlines. */
const MEASURE_LAYER_Z_INDEX = 50;

export interface MeasureOptions {
  /** The tool drawn with; null: not measuring (the layer and its measurements go). */
  kind: MapMeasureKind | null;
  /** The survey shown on the map (stamped on every draft). */
  surveyId?: number | null;
  capturedOn?: string | null;
  /** Features to snap to (parcel and building outlines); measurements snap to each other too. */
  snapSource?: VectorSource | null;
  /** A measurement was finished, or one already finished was edited (same `key`). */
  onMeasured?: (draft: MeasurementDraft & { key: string }) => void;
}

export interface MeasureController {
  /** A sketch is being drawn. */
  drawing: boolean;
  /** Points placed in the sketch. */
  points: number;
  /** The sketch's figures, live ("12.40 m"); null when not drawing. */
  text: string | null;
  /** The last thing to tell a screen-reader user (a polite live region reads it). */
  announcement: string;
  /** Acts on a measuring key (measureKeyAction); true when it was one (the caller prevents its default). */
  handleKey: (event: KeyLike) => boolean;
  undo: () => void;
  finish: () => void;
  cancel: () => void;
  /** Adds a point at the map's centre (the cross), snapped like a click. */
  addVertexAtCentre: () => void;
}

/** Points placed in a sketch: its last coordinate follows the pointer (or repeats the last point placed by
 * keyboard), and a ring repeats its first. */
function placedPoints(geometry: Geometry): number {
  if (geometry instanceof Polygon)
    return Math.max(0, (geometry.getLinearRing(0)?.getCoordinates().length ?? 0) - 2);
  if (geometry instanceof LineString) return Math.max(0, geometry.getCoordinates().length - 1);
  return 0;
}

/**
 * Measuring on any OpenLayers map: Draw for the kind (distance: two points; length: a polyline; area: a
 * polygon), Modify on the finished measurements (drag a vertex; the figures follow and `onMeasured` is
 * called again with the same key), Snap to `snapSource` and to the measurements, a tooltip overlay with
 * the live figures beside the sketch, and the keyboard (measureKeyAction). Geodesic figures (ol/sphere,
 * measureFigures.ts).
 */
export function useMeasureInteraction(map: OlMap | null, options: MeasureOptions): MeasureController {
  const { kind, snapSource } = options;
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const [drawing, setDrawing] = useState(false);
  const [points, setPoints] = useState(0);
  const [text, setText] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const drawRef = useRef<Draw | null>(null);
  const snapRef = useRef<Snap | null>(null);
  const sketchRef = useRef<Feature | null>(null);
  const pointsRef = useRef(0);

  useEffect(() => {
    if (!map || !kind) return undefined;
    const kindName = MEASURE_TEXT.kind[kind];
    const source = new VectorSource();
    const layer = new VectorLayer({ source, style: measuredFeatureStyle, zIndex: MEASURE_LAYER_Z_INDEX });
    layer.set('title', 'Measurements');
    map.addLayer(layer);

    const tooltipElement = document.createElement('div');
    tooltipElement.setAttribute('aria-hidden', 'true');
    tooltipElement.dataset.testid = 'measure-tooltip';
    Object.assign(tooltipElement.style, {
      background: 'rgba(0, 0, 0, 0.75)',
      color: '#fff',
      padding: '2px 6px',
      borderRadius: '4px',
      font: '600 12px system-ui, sans-serif',
      whiteSpace: 'nowrap',
    });
    const tooltip = new Overlay({
      element: tooltipElement,
      offset: [0, -12],
      positioning: 'bottom-center',
      stopEvent: false,
    });
    map.addOverlay(tooltip);

    const draw = new Draw({
      source,
      type: kind === 'area' ? 'Polygon' : 'LineString',
      style: sketchStyle,
      stopClick: true,
    });
    const modify = new Modify({ source, style: sketchStyle });
    const snaps = [new Snap({ source })];
    if (snapSource) snaps.unshift(new Snap({ source: snapSource }));
    // Snap goes last: it must see pointer events before Draw and Modify (interactions run last-added first).
    map.addInteraction(draw);
    map.addInteraction(modify);
    snaps.forEach((snap) => map.addInteraction(snap));
    drawRef.current = draw;
    snapRef.current = snaps[0];
    // The measuring keys move the map under the cross by a known step; OpenLayers' own arrow-key pan (a
    // default interaction, on the same element) would move it again, animated, by four times that.
    const keyboardPans = map
      .getInteractions()
      .getArray()
      .filter((interaction) => interaction instanceof KeyboardPan && interaction.getActive());
    keyboardPans.forEach((interaction) => interaction.setActive(false));

    const describe = (geometry: Geometry) => figuresLabel(kind, figuresOf(geometry));
    let geometryListener: (() => void) | null = null;

    const emit = (feature: Feature) => {
      const geometry = feature.getGeometry();
      if (!geometry) return null;
      const { surveyId = null, capturedOn = null } = latest.current;
      const draft = draftOf(kind, geometry, { surveyId, capturedOn });
      if (!draft) return null;
      feature.set('text', draft.text);
      latest.current.onMeasured?.({ ...draft, key: getUid(feature) });
      return draft;
    };

    draw.on('drawstart', (event: DrawEvent) => {
      sketchRef.current = event.feature;
      const geometry = event.feature.getGeometry()!;
      let finishing = false;
      const update = () => {
        const count = placedPoints(geometry);
        // A distance is two points: finished at the second, once Draw is done adding it. (Draw's own
        // maxPoints is not used: with appendCoordinates, the keyboard's way in, it finishes twice.)
        if (kind === 'distance' && count >= 2 && !finishing) {
          finishing = true;
          queueMicrotask(() => {
            if (sketchRef.current === event.feature) draw.finishDrawing();
          });
        }
        const live = describe(geometry);
        // Each point placed is read out with the figures so far (not every pointer move).
        if (count !== pointsRef.current && count > 0)
          setAnnouncement(MEASURE_TEXT.live(kindName, live, count));
        pointsRef.current = count;
        setPoints(count);
        setText(live);
        tooltipElement.textContent = live;
        const last =
          geometry instanceof Polygon
            ? geometry.getLinearRing(0)?.getCoordinates().at(-2)
            : (geometry as LineString).getLastCoordinate();
        tooltip.setPosition(last);
      };
      geometry.on('change', update);
      geometryListener = () => geometry.un('change', update);
      setDrawing(true);
      setAnnouncement(MEASURE_TEXT.started(kindName));
      update();
    });
    const endSketch = () => {
      geometryListener?.();
      geometryListener = null;
      sketchRef.current = null;
      pointsRef.current = 0;
      tooltip.setPosition(undefined);
      setDrawing(false);
      setPoints(0);
      setText(null);
    };
    draw.on('drawend', (event: DrawEvent) => {
      endSketch();
      const draft = emit(event.feature);
      if (!draft) {
        // Too short to measure (a double click at one spot): not kept.
        setTimeout(() => source.removeFeature(event.feature));
        setAnnouncement(MEASURE_TEXT.tooFew);
        return;
      }
      setAnnouncement(MEASURE_TEXT.finished(kindName, draft.text));
    });
    draw.on('drawabort', () => {
      endSketch();
      setAnnouncement(MEASURE_TEXT.cancelled);
    });
    modify.on('modifyend', (event: ModifyEvent) => {
      event.features.forEach((feature) => {
        const draft = emit(feature as Feature);
        if (draft) setAnnouncement(MEASURE_TEXT.finished(kindName, draft.text));
      });
    });

    return () => {
      geometryListener?.();
      keyboardPans.forEach((interaction) => interaction.setActive(true));
      snaps.forEach((snap) => map.removeInteraction(snap));
      map.removeInteraction(modify);
      map.removeInteraction(draw);
      map.removeOverlay(tooltip);
      map.removeLayer(layer);
      drawRef.current = null;
      snapRef.current = null;
      sketchRef.current = null;
      pointsRef.current = 0;
      setDrawing(false);
      setPoints(0);
      setText(null);
    };
  }, [map, kind, snapSource]);

  const undo = useCallback(() => {
    const draw = drawRef.current;
    if (!draw || !sketchRef.current) return;
    draw.removeLastPoint();
    setAnnouncement(MEASURE_TEXT.undone);
  }, []);

  const finish = useCallback(() => {
    const draw = drawRef.current;
    if (!draw || !sketchRef.current || !kind) return;
    const needed = kind === 'area' ? 3 : 2;
    if (pointsRef.current < needed) {
      setAnnouncement(MEASURE_TEXT.tooFew);
      return;
    }
    draw.finishDrawing();
  }, [kind]);

  const cancel = useCallback(() => {
    const draw = drawRef.current;
    if (!draw || !sketchRef.current) return;
    draw.abortDrawing();
  }, []);

  const addVertexAtCentre = useCallback(() => {
    const draw = drawRef.current;
    const centre = map?.getView().getCenter();
    if (!draw || !map || !centre) return;
    let at = centre;
    const pixel = map.getPixelFromCoordinate(centre);
    if (pixel && snapRef.current) at = snapRef.current.snapTo(pixel, centre, map)?.vertex ?? centre;
    draw.appendCoordinates([at.slice()]);
  }, [map]);

  const handleKey = useCallback(
    (event: KeyLike) => {
      if (!map || !kind) return false;
      const action = measureKeyAction(event);
      if (!action) return false;
      switch (action.type) {
        case 'finish':
          finish();
          return true;
        case 'cancel':
          if (!sketchRef.current) return false;
          cancel();
          return true;
        case 'undo':
          if (!sketchRef.current) return false;
          undo();
          return true;
        case 'addVertex':
          addVertexAtCentre();
          return true;
        case 'pan': {
          const view = map.getView();
          const centre = view.getCenter();
          const resolution = view.getResolution();
          if (!centre || resolution === undefined) return false;
          view.setCenter([centre[0] + action.dx * resolution, centre[1] - action.dy * resolution]);
          // Draw reads pixels off the last frame until the next is drawn: both ends of the distance it
          // compares (the new point, the sketch's first) go through the same frame, so it still holds.
          return true;
        }
      }
    },
    [map, kind, finish, cancel, undo, addVertexAtCentre],
  );

  return { drawing, points, text, announcement, handleKey, undo, finish, cancel, addVertexAtCentre };
}
