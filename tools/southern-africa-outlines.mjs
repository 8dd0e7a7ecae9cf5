#!/usr/bin/env node
// Writes the offline base map's country outlines (libs/web-kit/src/map/outlines/): South Africa and its
// neighbours from Natural Earth (world-atlas, public domain) as GeoJSON, one file per level of detail —
// 1:110m for the whole-country zooms, 1:50m from zoom 5 — with coordinates rounded to what those scales
// can show. The map fetches the file its zoom needs as data (libs/web-kit/src/map/offlineBaseMap.ts),
// instead of a script holding the whole world's 50m topology (~240 KB compressed on every map screen).
// Run again only when world-atlas or the countries change: node tools/southern-africa-outlines.mjs
// (`--out <folder>` writes elsewhere: web-kit's test compares a fresh run with the files kept).
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { feature } from 'topojson-client';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const folder =
  outIndex > 0 ? process.argv[outIndex + 1] : join(root, 'libs', 'web-kit', 'src', 'map', 'outlines');

/** ISO 3166-1 numeric (as web-kit's SOUTHERN_AFRICA_COUNTRY_IDS): South Africa, Lesotho, eSwatini, Namibia, Botswana, Zimbabwe, Mozambique. */
const COUNTRY_IDS = new Set([710, 426, 748, 516, 72, 716, 508]);

/**
 * Decimals kept per level: 1:110m is drawn up to zoom 5 (a pixel is ~2.4 km there at 512 px tiles, 0.01°
 * is ~1 km); 1:50m has vertices ~1 km apart, 0.001° is ~100 m.
 */
const LEVELS = [
  { scale: '110m', decimals: 2 },
  { scale: '50m', decimals: 3 },
];

const roundPositions = (value, factor) =>
  typeof value[0] === 'number'
    ? value.map((n) => Math.round(n * factor) / factor)
    : value.map((inner) => roundPositions(inner, factor));

/** Drops the vertices rounding made equal to the one before (a ring keeps at least its 4). */
function dedupe(value) {
  if (typeof value[0][0] === 'number') {
    const kept = value.filter(
      (position, i) => i === 0 || position[0] !== value[i - 1][0] || position[1] !== value[i - 1][1],
    );
    return kept.length >= 4 ? kept : value;
  }
  return value.map(dedupe);
}

mkdirSync(folder, { recursive: true });
for (const { scale, decimals } of LEVELS) {
  const topology = require(`world-atlas/countries-${scale}.json`);
  const countries = topology.objects.countries;
  const selected = {
    ...countries,
    geometries: countries.geometries.filter((g) => COUNTRY_IDS.has(Number(g.id))),
  };
  const collection = feature(topology, selected);
  const factor = 10 ** decimals;
  const outlines = {
    type: 'FeatureCollection',
    features: collection.features
      .map((country) => ({
        type: 'Feature',
        properties: { name: country.properties?.name ?? '', isoNumeric: Number(country.id) },
        geometry: {
          type: country.geometry.type,
          coordinates: dedupe(roundPositions(country.geometry.coordinates, factor)),
        },
      }))
      .sort((a, b) => a.properties.isoNumeric - b.properties.isoNumeric),
  };
  const file = join(folder, `southern-africa-${scale}.geojson`);
  writeFileSync(file, JSON.stringify(outlines) + '\n');
  console.log(`${file}: ${outlines.features.length} countries`);
}
