import { useEffect, useMemo, useRef } from 'react';
import type RenderEvent from 'ol/render/Event';
import { getRenderPixel } from 'ol/render';
import ImageLayer from 'ol/layer/Image';
import ImageStatic from 'ol/source/ImageStatic';
import type { ImageUrlAnswer, LatLng } from '@portal/contracts';
import { useMapLayer, useOlMap } from '@portal/web-kit';
import { useImageUrlQuery } from '../locator/locatorSearchApi';
import { orthoExtent } from './orthoExtent';

/** The survey pictures sit above the base map and below outlines and measurements. */
const PICTURE_Z_INDEX = 10;

export interface SurveyPictureLayerProps {
  point: LatLng;
  /** The survey; null: the newest at the point. */
  surveyId: number | null;
  /**
   * Show only the part left of this share of the map's width (0–1): the later picture of a swipe, drawn
   * over the earlier. Undefined: the whole picture.
   */
  clipLeft?: number;
  /** Above another picture layer (a swipe's upper picture). */
  zIndexOffset?: number;
  /** The picture's answer (URL, capture date, survey id, camera), or its failure (null). */
  onAnswer?: (answer: ImageUrlAnswer | null) => void;
}

/**
 * One survey's ortho picture on the enclosing MapView: idanImageUrl (orientation 'o', `survey`) placed as
 * a static image over its ground (orthoExtent: metresAcross wide, north up, centred on the point).
 */
export function SurveyPictureLayer({
  point,
  surveyId,
  clipLeft,
  zIndexOffset = 0,
  onAnswer,
}: SurveyPictureLayerProps) {
  const map = useOlMap();
  const answer = useImageUrlQuery({
    lat: point.lat,
    lng: point.lng,
    orientation: 'o',
    ...(surveyId !== null ? { survey: surveyId } : {}),
  });
  const data = answer.data;
  const onAnswerRef = useRef(onAnswer);
  useEffect(() => {
    onAnswerRef.current = onAnswer;
  });
  useEffect(() => {
    if (data) onAnswerRef.current?.(data.success ? data : null);
    else if (answer.isError) onAnswerRef.current?.(null);
  }, [data, answer.isError]);

  const url = data?.success ? data.url : null;
  const camera = data?.camera ?? undefined;
  const layer = useMemo(() => {
    if (!url) return null;
    const created = new ImageLayer({
      source: new ImageStatic({ url, imageExtent: orthoExtent(point, camera), projection: 'EPSG:3857' }),
      zIndex: PICTURE_Z_INDEX + zIndexOffset,
    });
    created.set('title', 'Survey picture');
    created.set('surveyId', data?.surveyId ?? surveyId);
    return created;
    // The point's figures, not the object: a new object with the same place must not reload the picture.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url, point.lat, point.lng, camera?.metresAcross, camera?.width, camera?.height, zIndexOffset]);
  useMapLayer(layer);

  // A swipe: clip the picture at the slider's share of the width, redrawn as the slider moves.
  const clipRef = useRef(clipLeft);
  useEffect(() => {
    clipRef.current = clipLeft;
    map.render();
  }, [map, clipLeft]);
  useEffect(() => {
    if (!layer) return undefined;
    let clipped = false;
    const before = (event: RenderEvent) => {
      const share = clipRef.current;
      const context = event.context as CanvasRenderingContext2D | undefined;
      if (share === undefined || !context) return;
      const size = map.getSize();
      if (!size) return;
      const x = size[0] * share;
      const corners = [
        getRenderPixel(event, [0, 0]),
        getRenderPixel(event, [x, 0]),
        getRenderPixel(event, [x, size[1]]),
        getRenderPixel(event, [0, size[1]]),
      ];
      context.save();
      context.beginPath();
      context.moveTo(corners[0][0], corners[0][1]);
      corners.slice(1).forEach(([px, py]) => context.lineTo(px, py));
      context.closePath();
      context.clip();
      clipped = true;
    };
    const after = (event: RenderEvent) => {
      const context = event.context as CanvasRenderingContext2D | undefined;
      if (clipped && context) context.restore();
      clipped = false;
    };
    layer.on('prerender', before);
    layer.on('postrender', after);
    return () => {
      layer.un('prerender', before);
      layer.un('postrender', after);
    };
  }, [map, layer]);
  return null;
}
