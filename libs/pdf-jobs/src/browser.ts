import { readdirSync, readFileSync } from 'node:fs';
import puppeteer, { type Browser, type LaunchOptions, type Page } from 'puppeteer-core';

/**
 * One Chromium per worker process (puppeteer-core driving Debian's /usr/bin/chromium: no browser download),
 * a page per job. The browser is recycled — a fresh one launched, the old one closed once its pages are
 * done — after `maxJobs` jobs or when its processes use more than `maxMemoryMb`, so a slow leak in Chromium
 * never grows without bound. A browser that crashed (disconnected) is dropped at once; the job that was
 * using it fails its try and the retry gets a new browser.
 */
export interface BrowserPoolOptions {
  /** Default $CHROMIUM_PATH, else /usr/bin/chromium. */
  executablePath?: string;
  /** Jobs one browser serves before it is replaced (default 50). */
  maxJobs?: number;
  /** Resident memory of the browser's process tree above which it is replaced (default 600 MB). */
  maxMemoryMb?: number;
  /** Logged events: launches, recycles, crashes. */
  log?: (event: string, detail?: Record<string, unknown>) => void;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  // The machine's network is closed: no update checks, sync or QUIC probes (each would be refused).
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--font-render-hinting=none',
];

export const defaultChromiumPath = () => process.env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium';

/**
 * A process's proportional set size (kB): its private memory plus its share of what it shares, so the sum
 * over Chromium's processes (which share most of their pages) is the memory they really take; the
 * resident size when smaps_rollup cannot be read; 0 when the process is gone.
 */
function processMemoryKb(pid: number): number {
  try {
    const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    if (pss) return Number(pss[1]);
  } catch {
    // not readable: fall back to the resident size
  }
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4;
  } catch {
    return 0;
  }
}

/** Memory (MB, proportional set size) of a process and all its descendants, from /proc (Linux). */
export function processTreeMemoryMb(rootPid: number): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const children = new Map<number, number[]>();
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command may hold spaces and parentheses: the fields after the last ')' are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // The process ended while we looked.
    }
  }
  let kb = 0;
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    kb += processMemoryKb(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return kb / 1024;
}

/** Why a browser was replaced by a new one. */
export type BrowserRestartReason = 'jobs' | 'memory' | 'crashed';

interface Entry {
  browser: Browser;
  jobs: number;
  active: number;
  retired: boolean;
}

export class BrowserPool {
  private current: Entry | null = null;
  private launching: Promise<Entry> | null = null;
  private readonly entries = new Set<Entry>();
  private closed = false;
  /** Launches so far (the first one included): tests and metrics read it. */
  launches = 0;
  /** The highest browser memory seen (MB), for metrics. */
  peakBrowserMb = 0;
  /**
   * Browsers replaced so far, by why: `jobs` (served maxJobs), `memory` (over maxMemoryMb), `crashed`
   * (disconnected while in use: killed, out of memory): the metrics' pdf_browser_restarts_total.
   */
  readonly restarts: Record<BrowserRestartReason, number> = { jobs: 0, memory: 0, crashed: 0 };

  constructor(private readonly options: BrowserPoolOptions = {}) {}

  private log(event: string, detail?: Record<string, unknown>) {
    this.options.log?.(event, detail);
  }

  private async launch(): Promise<Entry> {
    const options: LaunchOptions = {
      executablePath: this.options.executablePath ?? defaultChromiumPath(),
      headless: true,
      args: CHROMIUM_ARGS,
      // DevTools over a pipe rather than a port: Chromium exits when the pipe closes, so a worker that is
      // killed (SIGKILL, OOM) leaves no orphaned browser behind.
      pipe: true,
      // The worker handles its own signals (drains jobs first).
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    };
    const browser = await puppeteer.launch(options);
    this.launches++;
    const entry: Entry = { browser, jobs: 0, active: 0, retired: false };
    this.entries.add(entry);
    browser.on('disconnected', () => {
      this.entries.delete(entry);
      if (this.current === entry) {
        this.current = null;
        if (!entry.retired) {
          this.restarts.crashed++;
          this.log('browser disconnected', { pid: browser.process()?.pid });
        }
      }
    });
    this.log('browser launched', { pid: browser.process()?.pid, launches: this.launches });
    return entry;
  }

  /** The browser's process id (tests kill it to check crash recovery), or null when none runs. */
  browserPid(): number | null {
    return this.current?.browser.process()?.pid ?? null;
  }

  browserMemoryMb(): number {
    const pid = this.browserPid();
    return pid ? processTreeMemoryMb(pid) : 0;
  }

  private needsRecycle(entry: Entry): boolean {
    if (entry.jobs >= (this.options.maxJobs ?? 50)) return true;
    const pid = entry.browser.process()?.pid;
    if (!pid) return false;
    const mb = processTreeMemoryMb(pid);
    this.peakBrowserMb = Math.max(this.peakBrowserMb, mb);
    return mb > (this.options.maxMemoryMb ?? 600);
  }

  private retire(entry: Entry, reason: 'jobs' | 'memory') {
    entry.retired = true;
    this.restarts[reason]++;
    if (this.current === entry) this.current = null;
    this.log('browser recycled', { reason, jobs: entry.jobs });
    if (entry.active === 0) void entry.browser.close().catch(() => undefined);
  }

  private async acquire(): Promise<Entry> {
    if (this.closed) throw new Error('The browser pool is closed.');
    if (this.current && !this.current.browser.connected) this.current = null;
    if (this.current && this.needsRecycle(this.current))
      this.retire(this.current, this.current.jobs >= (this.options.maxJobs ?? 50) ? 'jobs' : 'memory');
    if (this.current) return this.current;
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    const entry = await this.launching;
    this.current ??= entry;
    return entry;
  }

  /** Runs `work` with a fresh page of the current browser; the page is closed afterwards, whatever happens. */
  async withPage<T>(work: (page: Page) => Promise<T>): Promise<T> {
    const entry = await this.acquire();
    entry.jobs++;
    entry.active++;
    let page: Page | null = null;
    try {
      page = await entry.browser.newPage();
      return await work(page);
    } finally {
      entry.active--;
      if (page) await page.close().catch(() => undefined);
      if (entry.retired && entry.active === 0) await entry.browser.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.entries];
    this.entries.clear();
    this.current = null;
    await Promise.all(all.map((entry) => entry.browser.close().catch(() => undefined)));
  }
}
