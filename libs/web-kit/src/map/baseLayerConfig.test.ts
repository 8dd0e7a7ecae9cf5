import { MAP_DEFAULTS } from '@portal/domain';
import {
  pickBaseLayer,
  readRuntimeBaseLayers,
  resolveBaseLayers,
  type BaseLayerConfig,
} from './baseLayerConfig';

const satellite: BaseLayerConfig = {
  id: 'satellite',
  title: 'Satellite',
  url: 'https://sat.example/{z}/{x}/{y}.jpg',
};
const street: BaseLayerConfig = {
  id: 'street',
  title: 'Street',
  url: 'https://{s}.street.example/{z}/{x}/{y}.png',
  fallback: 'street-fallback',
};
const streetFallback: BaseLayerConfig = {
  id: 'street-fallback',
  title: 'Street (fallback)',
  url: 'https://backup.example/{z}/{x}/{-y}.png',
  tileSize: 256,
  maxNativeZoom: 19,
};

describe('resolveBaseLayers', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('fills in the spec defaults: tile size 512, max native zoom 17', () => {
    const [layer] = resolveBaseLayers([satellite], undefined);
    expect(layer).toEqual({ ...satellite, tileSize: 512, maxNativeZoom: 17 });
    expect(MAP_DEFAULTS).toMatchObject({ tileSize: 512, maxNativeZoom: 17 });
  });

  it('keeps explicit tile size and native zoom, and turns Leaflet {s} into {a-c}', () => {
    const [streetLayer, fallbackLayer] = resolveBaseLayers([street, streetFallback], undefined);
    expect(streetLayer.url).toBe('https://{a-c}.street.example/{z}/{x}/{y}.png');
    expect(streetLayer.fallback).toBe('street-fallback');
    expect(fallbackLayer).toMatchObject({ tileSize: 256, maxNativeZoom: 19 });
  });

  it('prefers props over the runtime config', () => {
    const resolved = resolveBaseLayers([satellite], [street]);
    expect(resolved.map((layer) => layer.id)).toEqual(['satellite']);
  });

  it('uses the runtime config when no props are given', () => {
    const resolved = resolveBaseLayers(undefined, [street, streetFallback]);
    expect(resolved.map((layer) => layer.id)).toEqual(['street', 'street-fallback']);
  });

  it('an explicit empty list means the offline map even if the runtime config has layers', () => {
    expect(resolveBaseLayers([], [street])).toEqual([]);
  });

  it('resolves to nothing (offline map) without any config', () => {
    expect(resolveBaseLayers(undefined, undefined)).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('drops invalid runtime entries with a warning and keeps the valid ones', () => {
    const resolved = resolveBaseLayers(undefined, [
      null,
      'https://a.example/{z}/{x}/{y}.png',
      { id: 'no-url' },
      { id: 'no-placeholders', url: 'https://a.example/tile.png' },
      { id: 'bad-numbers', url: 'https://a.example/{z}/{x}/{y}.png', tileSize: -1, maxNativeZoom: 'high' },
      { id: 'bad-numbers', url: 'https://dup.example/{z}/{x}/{y}.png' },
    ]);
    expect(resolved).toEqual([
      {
        id: 'bad-numbers',
        title: 'bad-numbers',
        url: 'https://a.example/{z}/{x}/{y}.png',
        tileSize: 512,
        maxNativeZoom: 17,
      },
    ]);
    expect(warn).toHaveBeenCalledTimes(5);
  });

  it('ignores a runtime baseLayers value that is not an array', () => {
    expect(resolveBaseLayers(undefined, { url: 'https://a.example/{z}/{x}/{y}.png' })).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('ignores a layer that names itself as its fallback', () => {
    const [layer] = resolveBaseLayers([{ ...satellite, fallback: 'satellite' }], undefined);
    expect(layer.fallback).toBeUndefined();
  });
});

describe('readRuntimeBaseLayers', () => {
  const global = globalThis as { __PORTAL_CONFIG__?: unknown };
  afterEach(() => {
    delete global.__PORTAL_CONFIG__;
  });

  it('reads window.__PORTAL_CONFIG__.baseLayers when injected', () => {
    expect(readRuntimeBaseLayers()).toBeUndefined();
    global.__PORTAL_CONFIG__ = { apiBase: '/api', baseLayers: [street] };
    expect(readRuntimeBaseLayers()).toEqual([street]);
    expect((window as { __PORTAL_CONFIG__?: unknown }).__PORTAL_CONFIG__).toBe(global.__PORTAL_CONFIG__);
  });

  it('tolerates a config that is not an object', () => {
    global.__PORTAL_CONFIG__ = 'oops';
    expect(readRuntimeBaseLayers()).toBeUndefined();
  });
});

describe('pickBaseLayer', () => {
  const layers = resolveBaseLayers([satellite, street, streetFallback], undefined);
  const none = new Set<string>();

  it('shows the first layer by default and the requested one when asked', () => {
    expect(pickBaseLayer(layers, undefined, none)?.id).toBe('satellite');
    expect(pickBaseLayer(layers, 'street', none)?.id).toBe('street');
    expect(pickBaseLayer(layers, 'unknown', none)?.id).toBe('satellite');
  });

  it('follows the fallback link when the street server is down', () => {
    expect(pickBaseLayer(layers, 'street', new Set(['street']))?.id).toBe('street-fallback');
  });

  it('falls back to the offline map (undefined) when the chain is exhausted or nothing is configured', () => {
    expect(pickBaseLayer(layers, 'street', new Set(['street', 'street-fallback']))).toBeUndefined();
    expect(pickBaseLayer(layers, 'satellite', new Set(['satellite']))).toBeUndefined();
    expect(pickBaseLayer([], undefined, none)).toBeUndefined();
  });

  it('does not loop on a fallback cycle', () => {
    const cyclic = resolveBaseLayers(
      [
        { ...satellite, fallback: 'street' },
        { ...street, fallback: 'satellite' },
      ],
      undefined,
    );
    expect(pickBaseLayer(cyclic, 'satellite', new Set(['satellite', 'street']))).toBeUndefined();
  });
});
