// The install step of prepare (ensureNpmDependencies): quiet and clear on a fresh clone — one line before,
// one after — with npm's own output only when the install really fails. npm is a stand-in here
// (fixtures/fake-npm.mjs), the workspace a temporary folder. npm test runs it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ensureNpmDependencies, PrepareError } from '../prepare.mjs';

const FAKE_NPM = fileURLToPath(new URL('./fixtures/fake-npm.mjs', import.meta.url));

/** A fresh clone: a lock file, no node_modules. */
function clone() {
  const root = mkdtempSync(join(tmpdir(), 'install-test-'));
  writeFileSync(join(root, 'package-lock.json'), '{}');
  return root;
}

async function install(root, outcomes) {
  const calls = join(root, 'npm-calls.txt');
  writeFileSync(calls, '');
  for (const [command, outcome] of Object.entries(outcomes)) process.env[`FAKE_NPM_${command}`] = outcome;
  process.env.FAKE_NPM_CALLS = calls;
  const lines = [];
  let shown = '';
  let error;
  try {
    await ensureNpmDependencies({
      root,
      npm: FAKE_NPM,
      log: (line) => lines.push(line),
      showOutput: (text) => (shown += text),
    });
  } catch (err) {
    error = err;
  } finally {
    for (const command of Object.keys(outcomes)) delete process.env[`FAKE_NPM_${command}`];
  }
  return { lines, shown, error, calls: readFileSync(calls, 'utf8').trim().split('\n').filter(Boolean) };
}

test('a fresh clone: npm ci, told in one line before and one after, none of its warnings', async () => {
  const { lines, shown, error, calls } = await install(clone(), { CI: 'ok' });
  assert.equal(error, undefined);
  assert.deepEqual(calls, ['ci --no-audit --no-fund']);
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^npm dependencies: not installed yet; installing the locked versions with npm ci/);
  assert.match(lines[1], /^npm dependencies: added 1410 packages in 2m \(\d+ s\)$/);
  assert.equal(shown, '');
});

test('a lock npm ci refuses here: one line says so, npm install --no-save installs, still no npm output', async () => {
  const { lines, shown, error, calls } = await install(clone(), { CI: 'out-of-sync', INSTALL: 'ok' });
  assert.equal(error, undefined);
  assert.deepEqual(calls, ['ci --no-audit --no-fund', 'install --no-save --no-audit --no-fund']);
  assert.equal(lines.length, 3);
  assert.match(lines[1], /npm ci refused package-lock.json here .* npm install --no-save$/);
  assert.match(lines[2], /^npm dependencies: added 1410 packages/);
  assert.equal(shown, '');
});

test("a real failure shows npm's whole output and stops", async () => {
  const broken = await install(clone(), { CI: 'broken' });
  assert.ok(broken.error instanceof PrepareError);
  assert.match(broken.error.message, /`npm ci` failed/);
  assert.match(broken.shown, /npm error 404 Not Found/);
  assert.equal(broken.calls.length, 1);

  const both = await install(clone(), { CI: 'out-of-sync', INSTALL: 'broken' });
  assert.match(both.error.message, /`npm install` failed/);
  assert.match(both.shown, /npm error 404 Not Found/);
});

test('node_modules as new as the lock: nothing is run', async () => {
  const root = clone();
  mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(root, 'node_modules', '.package-lock.json'), '{}');
  const later = new Date(Date.now() + 1000);
  utimesSync(join(root, 'node_modules', '.package-lock.json'), later, later);
  const { lines, calls } = await install(root, {});
  assert.deepEqual(calls, []);
  assert.deepEqual(lines, ['npm dependencies: installed, up to date with package-lock.json']);
});
