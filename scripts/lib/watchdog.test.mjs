import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { run, sleep } from './system.mjs';
import { busyTestProcesses, describeBusy, stepLimitMs } from './watchdog.mjs';

test('a step gets its own limit, cut to what is left before the deadline', () => {
  const now = 1_000_000;
  assert.equal(stepLimitMs(45, now + 90 * 60_000, now), 45 * 60_000);
  assert.equal(stepLimitMs(45, now + 10 * 60_000, now), 10 * 60_000);
  assert.ok(stepLimitMs(45, now - 1, now) <= 0);
});

test('a command past its time is stopped with everything it started, and says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'watchdog-'));
  const pidFile = join(dir, 'grandchild.pid');
  const started = Date.now();
  let told = false;
  // A shell that starts a grandchild and waits for it: both must go.
  const result = await run('sh', ['-c', `sleep 30 & echo $! > ${pidFile}; wait`], {
    timeoutMs: 500,
    onTimeout: () => (told = true),
  });
  assert.equal(result.timedOut, true);
  assert.equal(result.code, 124);
  assert.equal(told, true);
  assert.ok(Date.now() - started < 15_000, 'stopped long before the command would have ended');
  const grandchild = Number(readFileSync(pidFile, 'utf8'));
  await sleep(300);
  // Gone, or a zombie waiting for a parent to reap it (this machine's init may not): no longer running.
  const state = existsSync(`/proc/${grandchild}/stat`)
    ? readFileSync(`/proc/${grandchild}/stat`, 'utf8').split(') ')[1]?.[0]
    : 'gone';
  assert.ok(state === 'gone' || state === 'Z', `the grandchild is still running (state ${state})`);
  rmSync(dir, { recursive: true, force: true });
});

test('a command that ends in time is not touched', async () => {
  const result = await run('sh', ['-c', 'exit 3'], { timeoutMs: 10_000 });
  assert.deepEqual(result, { code: 3, timedOut: false });
});

test('the busy test processes include this node --test run, named by its folder', () => {
  const busy = busyTestProcesses();
  const self = busy.find((p) => p.pid === process.ppid || p.pid === process.pid);
  assert.ok(busy.length > 0, describeBusy(busy));
  if (self) assert.equal(typeof self.seconds, 'number');
  assert.match(describeBusy(busy), /min\)/);
});
