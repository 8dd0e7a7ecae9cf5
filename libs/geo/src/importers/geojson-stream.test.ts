import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isoDate } from './coverage';
import { splitFarmName } from './farms';
import { tidyName } from './fields';
import { GeoJsonInputError, readGeoJsonFeatures } from './geojson-stream';

describe('readGeoJsonFeatures', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'geo-stream-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const read = async (text: string) => {
    const file = join(dir, 'input.geojson');
    writeFileSync(file, text);
    const out: unknown[] = [];
    for await (const { feature } of readGeoJsonFeatures(file)) out.push(feature);
    return out;
  };

  it('cuts features out of a large collection across read chunks, strings with braces and escapes included', async () => {
    const features = Array.from({ length: 9000 }, (_, i) => ({
      type: 'Feature',
      properties: { name: `Erf ${i} "{[Ŝtraße]}" \\ ü`, n: i },
      geometry: { type: 'Point', coordinates: [18 + i / 1e4, -33] },
    }));
    const text = JSON.stringify({ type: 'FeatureCollection', name: 'x', features, bbox: [1, 2, 3, 4] });
    expect(text.length).toBeGreaterThan(1 << 20);
    const out = (await read(text)) as { properties: { n: number; name: string } }[];
    expect(out).toHaveLength(9000);
    expect(out[4321].properties).toEqual(features[4321].properties);
  });

  it('reads newline-delimited features, a single feature, and reports non-features', async () => {
    const a = { type: 'Feature', properties: { a: 1 }, geometry: null };
    expect(await read(`${JSON.stringify(a)}\n${JSON.stringify(a)}\n`)).toEqual([a, a]);
    expect(await read(`\u001e${JSON.stringify(a)}\n`)).toEqual([a]);
    expect(await read(JSON.stringify(a))).toEqual([a]);
    expect(
      await read(`{"type":"FeatureCollection","features":[${JSON.stringify(a)}, 1, "x", null, [1]]}`),
    ).toEqual([a, null, null, null, null]);
    expect(await read('{"type":"FeatureCollection","features":[]}')).toEqual([]);
  });

  it('refuses what is not features of WGS 84 GeoJSON', async () => {
    await expect(read('{"type":"Polygon","coordinates":[]}')).rejects.toThrow(GeoJsonInputError);
    await expect(read('{"type":"FeatureCollection","features":[}')).rejects.toThrow(/unbalanced|ends/);
    await expect(read('')).rejects.toThrow(/no GeoJSON object/);
    await expect(
      read(
        '{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"EPSG:3857"}},"features":[]}',
      ),
    ).rejects.toThrow(/EPSG:3857/);
    expect(
      await read(
        '{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"EPSG:4326"}},"features":[]}',
      ),
    ).toEqual([]);
  });
});

describe('field helpers', () => {
  it('writes capitalised names the way people do', () => {
    expect(tidyName("GORDON'S BAY CDC")).toBe("Gordon's Bay CDC");
    expect(tidyName('AALWYNFLEUR')).toBe('Aalwynfleur');
    expect(tidyName('KLEIN-DRAKENSTEIN')).toBe('Klein-Drakenstein');
    expect(tidyName('RUST EN VREDE')).toBe('Rust en Vrede');
    expect(tidyName('Netreg')).toBe('Netreg');
  });

  it('splits farm names, reads dates', () => {
    expect(splitFarmName('Rietfontein 189 JR')).toEqual({
      name: 'Rietfontein',
      farmNumber: 189,
      division: 'JR',
    });
    expect(splitFarmName('Farm 12')).toEqual({ name: 'Farm', farmNumber: 12, division: undefined });
    expect(splitFarmName('Blaauwklippen')).toEqual({ name: 'Blaauwklippen' });
    expect(isoDate('2024/3/8')).toBe('2024-03-08');
    expect(isoDate('2024')).toBe('2024-01-01');
    expect(isoDate('2024-02-30')).toBeUndefined();
    expect(isoDate('March')).toBeUndefined();
  });
});
