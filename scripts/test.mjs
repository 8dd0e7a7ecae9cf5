#!/usr/bin/env node
// npm test [-- --only=unit | --only=e2e]: prepares the machine like `npm start` (plus Chromium and the e2e
// test remote), then type-checks, lints, runs the Jest suites and the Playwright suite, each with its
// output live, and ends with a summary whose last line reads `N passed, N failed`.
//
// Counting: tests, where the runner reports them (Jest's summary lines, Playwright's JSON report); a step
// that fails without a failing test (type errors, lint, a runner that crashed) counts as one failure, and
// a passing step without tests (type-check and lint) as one pass.
//
// Watchdog (scripts/lib/watchdog.mjs): each step has a time limit and the run a deadline (85 minutes, under
// CI's 90); a step past either is stopped and counted as failed, so the summary is always printed; every
// five minutes a running step names the test processes still busy.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { exitOnPrepareError, prepare } from './prepare.mjs';
import { bin, NX_ENV, ROOT, run } from './lib/system.mjs';
import { jestCounter } from './lib/test-counters.mjs';
import { busyTestProcesses, describeBusy, HEARTBEAT_MS, stepLimitMs } from './lib/watchdog.mjs';

/**
 * The run's deadline (minutes after it starts, preparation included): CI stops a run at 90 minutes without
 * a word, so the watchdog stops what is still running a little before that and still prints the summary.
 * TEST_DEADLINE_MINUTES changes it.
 */
const DEADLINE_MINUTES = Number(process.env.TEST_DEADLINE_MINUTES ?? 85);
const runStarted = Date.now();
const deadline = runStarted + DEADLINE_MINUTES * 60_000;

const GROUPS = ['unit', 'e2e'];
const onlyArg = process.argv.slice(2).find((arg) => arg.startsWith('--only='));
const only = onlyArg?.slice('--only='.length);
const unknownArgs = process.argv.slice(2).filter((arg) => arg !== onlyArg);
if (unknownArgs.length > 0 || (only !== undefined && !GROUPS.includes(only))) {
  console.error(`Usage: npm test [-- --only=${GROUPS.join('|')}]`);
  process.exit(2);
}

const ANSI = /\x1b\[[0-9;]*m/g; // eslint-disable-line no-control-regex

/**
 * The failing tests named in the summary, at most this many lines: CI shows only the tail of a run's output,
 * so a failure whose name scrolled away an hour earlier could not be told from a flake.
 */
const NAMED_FAILURES = 24;

/** node --test's closing lines: "# pass 4", "# fail 0". */
function nodeTestCounter() {
  let passed;
  let failed;
  return {
    onLine(line) {
      const count = /^# (pass|fail) (\d+)$/.exec(line.replace(ANSI, '').trim());
      if (count?.[1] === 'pass') passed = Number(count[2]);
      if (count?.[1] === 'fail') failed = Number(count[2]);
    },
    counts: () => (passed === undefined ? undefined : { passed, failed: failed ?? 0 }),
  };
}

/**
 * The scripts' own tests (plain Node, like the scripts): scripts/lib/*.test.mjs, named one by one —
 * `node --test scripts/` would also run every *-test.mjs script there (the containers test).
 */
const SCRIPT_TESTS = readdirSync(join(ROOT, 'scripts', 'lib'))
  .filter((name) => name.endsWith('.test.mjs'))
  .map((name) => join('scripts', 'lib', name));

const PLAYWRIGHT_REPORT = join(ROOT, 'var', 'e2e-results.json');

/** Playwright's JSON report: expected = passed, flaky = passed on retry, unexpected = failed. */
function playwrightCounter() {
  rmSync(PLAYWRIGHT_REPORT, { force: true });
  return {
    counts() {
      if (!existsSync(PLAYWRIGHT_REPORT)) return undefined;
      const { stats } = JSON.parse(readFileSync(PLAYWRIGHT_REPORT, 'utf8'));
      return { passed: stats.expected + stats.flaky, failed: stats.unexpected };
    },
    failures() {
      if (!existsSync(PLAYWRIGHT_REPORT)) return [];
      const names = [];
      const walk = (suite, titles) => {
        for (const spec of suite.specs ?? []) {
          const outcomes = (spec.tests ?? []).map((test) => test.status);
          if (outcomes.includes('unexpected') || outcomes.includes('flaky')) {
            names.push(
              `${outcomes.includes('unexpected') ? 'failed' : 'flaky'}: ${spec.file}:${spec.line} ${[...titles, spec.title].join(' › ')}`,
            );
          }
        }
        for (const child of suite.suites ?? [])
          walk(child, child.title && !child.title.endsWith('.ts') ? [...titles, child.title] : titles);
      };
      for (const suite of JSON.parse(readFileSync(PLAYWRIGHT_REPORT, 'utf8')).suites ?? []) walk(suite, []);
      return names;
    },
  };
}

const STEPS = [
  {
    name: 'type-check and lint',
    group: 'unit',
    limitMinutes: 20,
    command: bin('nx'),
    args: ['run-many', '-t', 'typecheck', 'lint', '--outputStyle=stream'],
    env: NX_ENV,
  },
  {
    name: 'formatting (Prettier)',
    group: 'unit',
    limitMinutes: 5,
    command: bin('prettier'),
    args: ['--check', '--log-level=warn', '.'],
  },
  {
    name: 'unit and integration tests (Jest)',
    group: 'unit',
    limitMinutes: 45,
    // The e2e project's `test` target is the Playwright suite: it runs as its own step below.
    command: bin('nx'),
    args: ['run-many', '-t', 'test', '--exclude=@portal/e2e', '--outputStyle=stream'],
    env: NX_ENV,
    counter: jestCounter,
  },
  {
    name: 'scripts (node --test)',
    group: 'unit',
    limitMinutes: 10,
    command: process.execPath,
    args: ['--test', '--test-reporter=tap', ...SCRIPT_TESTS],
    counter: nodeTestCounter,
  },
  {
    // The API's OpenAPI document built from every service's route schemas (scripts/openapi.mjs): linted with
    // @redocly/cli (redocly.yaml), its typed client generated (openapi-typescript) and the machine-session
    // example (examples/) type-checked over it.
    name: 'API document (OpenAPI)',
    group: 'unit',
    limitMinutes: 5,
    command: process.execPath,
    args: ['scripts/openapi.mjs', '--check'],
  },
  {
    name: 'browser tests (Playwright)',
    group: 'e2e',
    limitMinutes: 35,
    command: bin('playwright'),
    args: ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_REPORT },
    counter: playwrightCounter,
  },
].filter((step) => !only || step.group === only);

const wantsBrowser = STEPS.some((step) => step.group === 'e2e');
await exitOnPrepareError(() => prepare({ testRemote: wantsBrowser }));

// Colours survive the pipe that lets this script read the summaries, when a person is watching.
const colour = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};
const results = [];
for (const step of STEPS) {
  console.log(
    `\n[test] ${step.name}: ${[step.command.replace(`${ROOT}/node_modules/.bin/`, ''), ...step.args].join(' ')}\n`,
  );
  const counter = step.counter?.();
  const started = Date.now();
  const limitMs = stepLimitMs(step.limitMinutes, deadline, started);
  if (limitMs <= 0) {
    console.log(`[test] ${step.name}: not started, the run's ${DEADLINE_MINUTES}-minute deadline has passed`);
    results.push({
      name: step.name,
      ok: false,
      note: 'not started',
      counts: { passed: 0, failed: 1 },
      seconds: 0,
    });
    continue;
  }
  const minutes = () => Math.round((Date.now() - started) / 60_000);
  const heartbeat = setInterval(
    () =>
      console.log(
        `\n[test] ${step.name}: running for ${minutes()} min; busy: ${describeBusy(busyTestProcesses())}\n`,
      ),
    HEARTBEAT_MS,
  );
  const { code, timedOut } = await run(step.command, step.args, {
    env: { ...colour, ...step.env },
    onLine: counter?.onLine,
    timeoutMs: limitMs,
    onTimeout: () =>
      console.log(
        `\n[test] ${step.name}: stopped after ${minutes()} min (its limit, or the run's deadline); still busy: ${describeBusy(busyTestProcesses())}\n`,
      ),
  });
  clearInterval(heartbeat);
  const counts = counter?.counts() ?? { passed: 0, failed: 0 };
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  if (code === 0 && counts.passed === 0 && !step.counter) counts.passed = 1;
  results.push({
    name: step.name,
    ok: code === 0,
    note: timedOut ? 'stopped: took too long' : undefined,
    failures: counter?.failures?.() ?? [],
    counts,
    seconds: (Date.now() - started) / 1000,
  });
}

const passed = results.reduce((sum, r) => sum + r.counts.passed, 0);
const failed = results.reduce((sum, r) => sum + r.counts.failed, 0);
const named = results.flatMap((r) => r.failures.map((failure) => `  ${r.name}: ${failure}`));
if (named.length > 0) {
  console.log(
    `\n[test] Failed or flaky, by name${named.length > NAMED_FAILURES ? ` (the first ${NAMED_FAILURES} of ${named.length})` : ''}:`,
  );
  for (const line of named.slice(0, NAMED_FAILURES)) console.log(line);
}
console.log(`\n[test] Summary (${Math.round((Date.now() - runStarted) / 60_000)} min in all)`);
for (const r of results) {
  const counts = `${r.counts.passed} passed, ${r.counts.failed} failed`;
  console.log(
    `  ${r.ok ? 'ok    ' : 'FAILED'}  ${r.name.padEnd(36)} ${counts.padEnd(24)} ${r.seconds.toFixed(0).padStart(4)} s${r.note ? `  (${r.note})` : ''}`,
  );
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
