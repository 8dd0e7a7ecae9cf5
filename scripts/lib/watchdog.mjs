// The test run's watchdog: a step that runs past its time is stopped (its whole process group) so that
// `npm test` always ends with its summary, and while a step runs a heartbeat names the test processes that
// are busy — so a log cut off by CI's time limit still says which project was running and for how long.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { relative } from 'node:path';
import { ROOT } from './system.mjs';

/** How often a running step says which test processes are busy. */
export const HEARTBEAT_MS = 5 * 60_000;

/**
 * The test runners among this machine's processes: Jest (one per project under Nx), Playwright,
 * node --test, and the checkers (tsc, eslint, prettier), with the project folder they run in and how long they have been running.
 */
export function busyTestProcesses() {
  const ticksPerSecond = 100; // USER_HZ: 100 on every Linux build we run on
  const uptimeSeconds = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  const busy = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const runner = args.find(
        (arg) => /(?:^|\/)(jest|playwright|tsc|eslint|prettier)(?:\.js)?$/.test(arg) || arg === '--test',
      );
      if (!runner || args.some((arg) => arg.includes('jest-worker') || arg.includes('processChild')))
        continue;
      const cwd = relative(ROOT, readlinkSync(`/proc/${entry}/cwd`)) || '.';
      if (cwd.startsWith('..')) continue; // another checkout's tests
      // Field 22 of /proc/<pid>/stat is the start time in ticks after boot (fields counted after the name).
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
      const seconds = Math.round(uptimeSeconds - startTicks / ticksPerSecond);
      busy.push({ pid: Number(entry), project: cwd, runner: runner.split('/').pop(), seconds });
    } catch {
      // The process ended while we read it.
    }
  }
  return busy.sort((a, b) => b.seconds - a.seconds);
}

export const describeBusy = (busy) =>
  busy.length === 0
    ? 'no test process found'
    : busy.map((p) => `${p.project} (${p.runner}, ${Math.round(p.seconds / 60)} min)`).join(', ');

/**
 * The minutes a step may take: its own limit, cut to what is left before the run's deadline. Zero or less:
 * the step does not start.
 */
export function stepLimitMs(stepLimitMinutes, deadline, now = Date.now()) {
  return Math.min(stepLimitMinutes * 60_000, deadline - now);
}
