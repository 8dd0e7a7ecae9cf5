// npm start's supervisor (scripts/lib/processes.mjs superviseProcess): a process that dies is started
// again and logged, the others keep running, and stopping ends it for good. npm test runs it:
// node --test scripts/lib/supervisor.test.mjs
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  findFreePort,
  formatLogLine,
  stopProcesses,
  superviseProcess,
  waitUntilReady,
} from './processes.mjs';
import { canConnect, sleep, waitFor } from './system.mjs';

const FIXTURE = 'scripts/lib/fixtures/tiny-service.mjs';

async function spec(name, env = {}) {
  const port = await findFreePort();
  return { name, entry: FIXTURE, port, env: { PORT: String(port), ...env } };
}

const pidOf = async ({ port }) => Number(await (await fetch(`http://127.0.0.1:${port}/pid`)).text());

const started = [];
after(() => stopProcesses(started, 2_000));

test('a process killed with SIGKILL is started again and logged, the others keep running', async () => {
  const lines = [];
  const options = { log: (line) => lines.push(line), minDelayMs: 200, maxDelayMs: 800 };
  const victim = superviseProcess(await spec('victim'), options);
  const bystander = superviseProcess(await spec('bystander'), options);
  started.push(victim, bystander);
  await Promise.all([victim.ready, bystander.ready]);
  const [firstPid, bystanderPid] = [await pidOf(victim.spec), await pidOf(bystander.spec)];

  victim.current.child.kill('SIGKILL');
  assert.ok(
    await waitFor(
      async () => (await canConnect('127.0.0.1', victim.spec.port)) && victim.restarts === 1,
      10_000,
    ),
    `victim did not come back; supervisor said: ${lines.join(' / ')}`,
  );
  await waitUntilReady(victim.current);
  assert.notEqual(await pidOf(victim.spec), firstPid);
  assert.equal(await pidOf(bystander.spec), bystanderPid, 'the other process was not touched');
  assert.equal(bystander.restarts, 0);
  assert.match(
    lines[0],
    /^victim +\| stopped unexpectedly \(killed by SIGKILL\); restarting in 0.2 s \(restart 1\)/,
  );
  assert.ok(await waitFor(() => lines.some((line) => /victim +\| is back \(restart 1/.test(line)), 5_000));
});

test('quick deaths in a row wait longer each time, up to the limit', async () => {
  const lines = [];
  const victim = superviseProcess(await spec('flaky'), {
    log: (line) => lines.push(line),
    minDelayMs: 100,
    maxDelayMs: 400,
  });
  started.push(victim);
  await victim.ready;
  for (let restart = 1; restart <= 4; restart++) {
    await waitUntilReady(victim.current);
    victim.current.child.kill('SIGKILL');
    assert.ok(await waitFor(() => victim.restarts === restart, 5_000), `restart ${restart} did not happen`);
  }
  const waits = lines
    .filter((line) => line.includes('restarting in'))
    .map((line) => Number(/restarting in ([\d.]+) s/.exec(line)[1]));
  assert.deepEqual(waits, [0.1, 0.2, 0.4, 0.4]);
});

test('stopping ends a process for good: no restart follows, and a pending restart is called off', async () => {
  const lines = [];
  const options = { log: (line) => lines.push(line), minDelayMs: 300 };
  const stopped = superviseProcess(await spec('stopped'), options);
  const pending = superviseProcess(await spec('pending'), options);
  started.push(stopped, pending);
  await Promise.all([stopped.ready, pending.ready]);

  await stopProcesses([stopped], 2_000);
  assert.equal(stopped.current.child.signalCode ?? stopped.current.child.exitCode, 'SIGTERM');
  // Dies, and is stopped while its restart waits.
  pending.current.child.kill('SIGKILL');
  await pending.current.exited;
  await stopProcesses([pending], 2_000);
  await sleep(600);
  assert.equal(stopped.restarts + pending.restarts, 0);
  assert.equal(await canConnect('127.0.0.1', stopped.spec.port), false);
  assert.equal(await canConnect('127.0.0.1', pending.spec.port), false);
  assert.equal(lines.filter((line) => line.startsWith('stopped ')).length, 0);
});

test('a first run that never gets ready is not started again: ready says why', async () => {
  const lines = [];
  const broken = superviseProcess(await spec('broken', { FAIL_AT_START: 'missing setting X' }), {
    log: (line) => lines.push(line),
    minDelayMs: 100,
  });
  started.push(broken);
  await assert.rejects(
    broken.ready,
    /broken \(.*\) exited with code 3\. Its last output:\n {2}missing setting X/,
  );
  await sleep(400);
  assert.equal(broken.restarts, 0);
  assert.deepEqual(lines, []);
});

test("the terminal's log lines keep the start of the request id, the same in the gateway and the service", () => {
  const line = (service) =>
    JSON.stringify({
      level: 30,
      service,
      reqId: '74a47b32-4cda-4d07-bd99-506e0472c28f',
      res: { statusCode: 401 },
      responseTime: 3.2,
      msg: 'request completed',
    });
  assert.equal(formatLogLine(line('gateway')), 'INFO  request completed -> 401 in 3 ms [74a47b32]');
  assert.equal(formatLogLine(line('identity')), formatLogLine(line('gateway')));
  assert.equal(formatLogLine('plain text'), 'plain text');
});
