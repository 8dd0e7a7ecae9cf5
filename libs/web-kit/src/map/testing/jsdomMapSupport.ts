// jsdom has no ResizeObserver, which OpenLayers uses to watch its container. Elements have no size in
// jsdom either, so OpenLayers never draws a frame and needs no canvas: a no-op observer is enough.
class NoopResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

export function installJsdomMapSupport(): void {
  const global = globalThis as { ResizeObserver?: unknown };
  global.ResizeObserver ??= NoopResizeObserver;
}
