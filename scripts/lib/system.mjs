// Small helpers for the start/test/prepare scripts: plain Node, no dependencies (they run before `npm ci`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Settings Nx needs to run unattended: no daemon, no cloud, no terminal UI. */
export const NX_ENV = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

/** A workspace tool from node_modules/.bin (what `npx` would run, without npm's start-up cost). */
export const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const isRoot = () => process.getuid?.() === 0;

export function commandExists(name) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));
}

/**
 * Runs a command with its output shown live; with `onLine`, each output line is also handed over (to spot
 * a message or pick up a summary). Resolves with the exit code, never rejects on a non-zero exit. With
 * `timeoutMs`, a command still running then is stopped with its process group (exit code 124, `timedOut`).
 */
export function run(command, args = [], { env, onLine, timeoutMs, onTimeout } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: onLine ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      // Its own process group, so a timed-out command goes with everything it started (Nx's tasks, Jest).
      detached: timeoutMs !== undefined,
    });
    let timedOut = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => {
              timedOut = true;
              onTimeout?.();
              const signalGroup = (signal) => {
                try {
                  process.kill(-child.pid, signal);
                } catch {
                  // Already gone.
                }
              };
              signalGroup('SIGTERM');
              setTimeout(() => signalGroup('SIGKILL'), 10_000).unref();
            },
            Math.max(0, timeoutMs),
          );
    // Out of the terminal's process group, the command no longer hears Ctrl-C itself: pass it on.
    const passOn = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
      process.exit(130);
    };
    if (timeoutMs !== undefined) for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, passOn);
    if (onLine) {
      for (const [stream, target] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let partial = '';
        stream.on('data', (chunk) => {
          const text = chunk.toString();
          target.write(text);
          const lines = (partial + text).split('\n');
          partial = lines.pop();
          lines.forEach(onLine);
        });
        stream.on('end', () => partial && onLine(partial));
      }
    }
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, passOn);
      resolve({ code: timedOut ? 124 : (code ?? (signal ? 128 : 1)), timedOut });
    });
  });
}

/**
 * Runs a command without showing its output: resolves with the exit code and everything it printed (stdout
 * and stderr interleaved), for the caller to show when it failed. Never rejects on a non-zero exit.
 */
export function runQuietly(command, args = [], { env, cwd = ROOT } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), output: Buffer.concat(chunks).toString() }),
    );
  });
}

/** Runs a short command and returns its trimmed stdout, or undefined when it fails. */
export function capture(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** Whether something accepts TCP connections on host:port. */
export function canConnect(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Polls `check` until it returns true, up to `timeoutMs`. */
export async function waitFor(check, timeoutMs, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(intervalMs);
  }
}

/** host and port of a URL such as postgres://u@127.0.0.1:5432/db, with the scheme's default port. */
export function hostAndPort(url, defaultPort) {
  const { hostname, port } = new URL(url);
  return { host: hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(port) || defaultPort };
}

export const isLocalHost = (host) => ['127.0.0.1', 'localhost', '::1'].includes(host);
