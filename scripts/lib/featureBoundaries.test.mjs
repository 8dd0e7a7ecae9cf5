// The workspace's ESLint rule that a remote's features do not import each other (eslint.config.mjs,
// eslint-plugin-boundaries' `boundaries/dependencies`) fires: for every remote with features, a file of one
// feature that imports a file of another feature is an error, while imports inside one feature and imports
// of the remote's shared folders are not. The snippets are linted where they would live (lintText with a
// file path); the imported files are real, since the rule only judges imports it can resolve.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RULE = 'boundaries/dependencies';

const dirs = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** A source file (not a test) somewhere under `dir`, or null. */
function sourceFileIn(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) return full;
  }
  for (const sub of dirs(dir)) {
    const found = sourceFileIn(path.join(dir, sub));
    if (found) return found;
  }
  return null;
}

/** Every remote's features: [{ remote, feature, dir, file }] (features with at least one source file). */
function remoteFeatures() {
  const found = [];
  for (const remote of dirs(ROOT).filter((name) => name.startsWith('mf-'))) {
    const featuresDir = path.join(ROOT, remote, 'src', 'features');
    if (!statSync(featuresDir, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const feature of dirs(featuresDir)) {
      const dir = path.join(featuresDir, feature);
      const file = sourceFileIn(dir);
      if (file) found.push({ remote, feature, dir, file });
    }
  }
  return found;
}

/** The specifier that imports `target` from a file in `fromDir` (no extension, as the remotes write it). */
const specifier = (fromDir, target) => {
  const relative = path
    .relative(fromDir, target)
    .replace(/\.tsx?$/, '')
    .split(path.sep)
    .join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
};

const eslint = new ESLint({ cwd: ROOT });

/** The rule's messages for a snippet importing `target`, linted as the file `filePath`. */
async function boundaryErrors(filePath, target) {
  const code = `import * as imported from '${specifier(path.dirname(filePath), target)}';\nexport const probe = imported;\n`;
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((message) => message.ruleId === RULE);
}

const features = remoteFeatures();

test('there are remotes with features to check', () => {
  assert.ok(features.length >= 2, `found ${features.length} features under mf-*/src/features/`);
});

test('a feature importing another feature is an error, in every remote', async () => {
  for (const remote of new Set(features.map((f) => f.remote))) {
    const [from] = features.filter((f) => f.remote === remote);
    // Another feature of the same remote when there is one, else one of another remote.
    const other =
      features.find((f) => f.remote === remote && f.feature !== from.feature) ??
      features.find((f) => f.remote !== remote);
    const filePath = path.join(from.dir, 'boundaryProbe.ts');
    const errors = await boundaryErrors(filePath, other.file);
    assert.equal(
      errors.length,
      1,
      `${path.relative(ROOT, filePath)} importing ${path.relative(ROOT, other.file)}: ${RULE} should fire`,
    );
    assert.match(errors[0].message, /feature does not import another feature/);
  }
});

test('imports inside one feature, and of the shared folders outside features/, are allowed', async () => {
  const [one] = features;
  assert.deepEqual(await boundaryErrors(path.join(one.dir, 'boundaryProbe.ts'), one.file), []);
  const texts = path.join(ROOT, one.remote, 'src', 'texts.ts');
  if (statSync(texts, { throwIfNoEntry: false })) {
    assert.deepEqual(await boundaryErrors(path.join(one.dir, 'boundaryProbe.ts'), texts), []);
  }
  // A page outside features/ may put features together.
  const outside = path.join(ROOT, one.remote, 'src', 'boundaryProbe.ts');
  assert.deepEqual(await boundaryErrors(outside, one.file), []);
});
