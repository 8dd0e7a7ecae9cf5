// jsdom has no ResizeObserver, which OpenLayers uses to watch its container. Elements have no size in
// jsdom either, so a map left alone never draws a frame and needs no canvas: a no-op observer is enough.
class NoopResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

// A test that gives its map a size (the measuring tools' tests) does get frames, on jsdom's own animation
// clock; OpenLayers' styles then ask whether a fill is a CanvasPattern or CanvasGradient, names jsdom does
// not define. Nothing is ever one of these here: empty classes answer the `instanceof` with false.
class NoCanvasPattern {}
class NoCanvasGradient {}

export function installJsdomMapSupport(): void {
  const global = globalThis as {
    ResizeObserver?: unknown;
    CanvasPattern?: unknown;
    CanvasGradient?: unknown;
  };
  global.ResizeObserver ??= NoopResizeObserver;
  global.CanvasPattern ??= NoCanvasPattern;
  global.CanvasGradient ??= NoCanvasGradient;
}
