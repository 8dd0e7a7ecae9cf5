import { Readable } from 'node:stream';

/**
 * `<NAME>_URL` as the gateway reads it: one base URL, or several instances of the service separated by
 * commas (`http://10.0.0.5:3001,http://10.0.0.6:3001`), each without its trailing slash.
 */
export function parseUpstreams(setting: string): string[] {
  const urls = setting
    .split(',')
    .map((url) => url.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  if (!urls.length) throw new Error(`No upstream URL in '${setting}'.`);
  return urls;
}

/**
 * The instances of one service, taken in turn (round robin). An instance that refused a connection is
 * left out of the turn for `downMs` (it is restarting or gone); then it is tried again. When every
 * instance is left out, they are all tried anyway: a refusal costs little, and one may be back.
 */
export class UpstreamPool {
  private next = 0;
  private readonly downUntil = new Map<string, number>();

  constructor(
    readonly urls: readonly string[],
    private readonly downMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The next instance in turn, skipping those that refused lately and those in `tried`. */
  pick(tried: ReadonlySet<string> = new Set()): string | undefined {
    const candidates = this.urls.filter((url) => !tried.has(url));
    if (!candidates.length) return undefined;
    const now = this.now();
    const up = candidates.filter((url) => (this.downUntil.get(url) ?? 0) <= now);
    const from = up.length ? up : candidates;
    const url = from[this.next % from.length];
    this.next = (this.next + 1) % Number.MAX_SAFE_INTEGER;
    return url;
  }

  /** `url` refused a connection (or said it is stopping): out of the turn for `ms`. */
  markDown(url: string, ms = this.downMs): void {
    this.downUntil.set(url, Math.max(this.downUntil.get(url) ?? 0, this.now() + ms));
  }
}

/**
 * A request body that reads from the client's request only once the upstream connection takes it. undici
 * destroys the body of a request whose connection failed; with this wrapper it destroys the wrapper, and
 * the client's request, never read, can be sent to another instance in a new wrapper (`started` says
 * whether anything was read from it).
 */
export class LazyBody extends Readable {
  started = false;

  constructor(readonly source: Readable) {
    super();
  }

  private readonly onData = (chunk: Buffer) => {
    if (!this.push(chunk)) this.source.pause();
  };
  private readonly onEnd = () => this.push(null);
  private readonly onError = (err: Error) => this.destroy(err);
  // A client gone before its body was read to the end: the upstream request must not wait for the rest.
  private readonly onClose = () => {
    if (!this.source.readableEnded) this.destroy(new Error('The client closed the request.'));
  };

  override _read(): void {
    if (!this.started) {
      this.started = true;
      this.source.on('data', this.onData);
      this.source.once('end', this.onEnd);
      this.source.once('error', this.onError);
      this.source.once('close', this.onClose);
    }
    this.source.resume();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    // Read or not, the client's request stays as it is: the gateway still answers on its connection.
    this.source.off('data', this.onData);
    this.source.off('end', this.onEnd);
    this.source.off('error', this.onError);
    this.source.off('close', this.onClose);
    if (!this.source.readableEnded) this.source.pause();
    callback(err);
  }
}
