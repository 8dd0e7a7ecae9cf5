import { createReadStream } from 'node:fs';

/**
 * Reads GeoJSON features one at a time without holding the file: a FeatureCollection of any size (only one
 * feature's text is in memory at once), a single Feature, or a sequence of Features (newline-delimited
 * GeoJSON, or RFC 8142 GeoJSON text sequences). A scanner follows strings and nesting to cut each feature's
 * text out of the stream; JSON.parse reads it.
 */
export interface StreamedFeature {
  /** The feature, or the text that did not parse as JSON. */
  feature: unknown;
  /** Its position in the input, from 0. */
  index: number;
  /** Bytes of the file read so far (progress). */
  bytesRead: number;
}

export class GeoJsonInputError extends Error {}

/** A coordinate reference system other than WGS 84 longitude/latitude stops the import. */
function checkCrs(text: string): void {
  let name = '';
  try {
    const crs = JSON.parse(text) as { properties?: { name?: string } };
    name = crs.properties?.name ?? '';
  } catch {
    throw new GeoJsonInputError('The "crs" member of the GeoJSON is not valid JSON.');
  }
  if (!name || /CRS84|EPSG:{1,2}4326$|WGS\s*84/i.test(name)) return;
  throw new GeoJsonInputError(
    `The GeoJSON is in ${name}; the importers take WGS 84 longitude/latitude (EPSG:4326). ` +
      'Reproject it first, e.g. ogr2ogr -t_srs EPSG:4326 out.geojson in.geojson.',
  );
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

export async function* readGeoJsonFeatures(file: string): AsyncGenerator<StreamedFeature> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let depth = 0;
  let inString = false;
  let escaped = false;
  // Keys of the top-level object (depth 1): which member a value at depth 1 belongs to.
  let key = '';
  let keyText: string[] | undefined;
  let lastString = '';
  // The features array of a top-level FeatureCollection: features are the objects at this depth.
  let featuresDepth = -1;
  // What is being cut out: a feature, or a top-level object that may be one.
  let capture: 'feature' | 'top' | undefined;
  let captureDepth = 0;
  let parts: string[] = [];
  let start = 0;
  let index = 0;
  let sawTopLevelObject = false;
  let sawFeatures = false;
  // The top-level "crs" member, cut out alongside (it sits inside the top-level object).
  let crsParts: string[] | undefined;
  let crsStart = 0;
  // In the features array, between a '[' or ',' and the next value: a value that is not an object is
  // reported (as null) so the import counts it as not a feature.
  let expectValue = false;

  for await (const chunk of stream as AsyncIterable<string>) {
    start = 0;
    const length = chunk.length;
    for (let i = 0; i < length; i++) {
      const c = chunk.charCodeAt(i);
      if (!inString && c === COMMA && depth === featuresDepth) {
        expectValue = true;
        continue;
      }
      if (expectValue && depth === featuresDepth && !inString) {
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
        expectValue = false;
        if (c !== OPEN_BRACE && c !== CLOSE_BRACKET)
          yield { feature: null, index: index++, bytesRead: stream.bytesRead };
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (keyText) {
            lastString = keyText.join('');
            keyText = undefined;
          }
        } else if (keyText) keyText.push(chunk[i]);
        continue;
      }
      if (c === QUOTE) {
        inString = true;
        if (depth === 1) keyText = [];
        continue;
      }
      if (c === COLON) {
        if (depth === 1) key = lastString;
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (c === OPEN_BRACE && !capture) {
          if (depth === 0) {
            capture = 'top';
            sawTopLevelObject = true;
            captureDepth = 0;
            start = i;
            parts = [];
          } else if (depth === featuresDepth) {
            capture = 'feature';
            captureDepth = depth;
            start = i;
            parts = [];
          }
        }
        if (c === OPEN_BRACE && depth === 1 && key === 'crs' && !crsParts) {
          crsParts = [];
          crsStart = i;
        }
        if (c === OPEN_BRACKET && depth === 1 && key === 'features' && featuresDepth < 0) {
          // A FeatureCollection: stop holding the top-level object, cut out its features instead.
          featuresDepth = 2;
          sawFeatures = true;
          expectValue = true;
          if (capture === 'top') {
            capture = undefined;
            parts = [];
          }
        }
        depth++;
        continue;
      }
      if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth < 0) throw new GeoJsonInputError(`${file} is not GeoJSON: unbalanced "${chunk[i]}".`);
        if (c === CLOSE_BRACKET && depth === 1 && featuresDepth === 2) featuresDepth = -1;
        if (crsParts && c === CLOSE_BRACE && depth === 1 && key === 'crs') {
          crsParts.push(chunk.slice(crsStart, i + 1));
          checkCrs(crsParts.join(''));
          crsParts = undefined;
          key = '';
        }
        if (capture && c === CLOSE_BRACE && depth === captureDepth) {
          parts.push(chunk.slice(start, i + 1));
          const text = parts.join('');
          parts = [];
          const kind = capture;
          capture = undefined;
          {
            let feature: unknown;
            try {
              feature = JSON.parse(text);
            } catch {
              feature = text;
            }
            if (kind === 'top') {
              const type = (feature as { type?: unknown })?.type;
              if (type === 'FeatureCollection') continue; // features were read from within
              if (type !== 'Feature' && typeof feature !== 'string') {
                throw new GeoJsonInputError(
                  `${file} holds a GeoJSON ${String(type)}, not a FeatureCollection or Features.`,
                );
              }
            }
            yield { feature, index: index++, bytesRead: stream.bytesRead };
          }
        }
        if (depth === 0) key = '';
      }
    }
    if (capture) parts.push(chunk.slice(start));
    if (crsParts) {
      crsParts.push(chunk.slice(crsStart));
      crsStart = 0;
    }
  }
  if (depth !== 0 || inString) throw new GeoJsonInputError(`${file} ends in the middle of a GeoJSON value.`);
  if (!sawTopLevelObject && !sawFeatures) throw new GeoJsonInputError(`${file} holds no GeoJSON object.`);
}
