// tools/mf-library-files.cjs: which @portal/contracts and @portal/domain files the web builds share by file
// (the shell's copy, loaded once). Its reading of imports decides what reaches a page twice, so it is pinned
// here: value imports through the barrels count, type-only ones do not, a file's own imports follow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const {
  barrelIndex,
  reachedLibraryFiles,
  valueNames,
  libraryFilesSharedWithShell,
  workspaceRoot,
} = require('../../tools/mf-library-files.cjs');

const contracts = (file) => path.join(workspaceRoot, 'libs/contracts/src', file);
const index = barrelIndex();

/** The library files reached from one source file with `text`, as paths relative to the workspace. */
function reachedFrom(text) {
  const folder = mkdtempSync(path.join(tmpdir(), 'mf-library-files-'));
  try {
    writeFileSync(path.join(folder, 'page.tsx'), text);
    return [...reachedLibraryFiles([folder], index)].map((file) => path.relative(workspaceRoot, file)).sort();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test('value names: `import type` and `type X` are erased, `as` keeps the imported name', () => {
  const text = `import { A, type B, C as D } from '@portal/contracts';
import type { E } from '@portal/contracts';
import { F } from '@portal/domain';`;
  assert.deepEqual(valueNames(text, '@portal/contracts'), ['A', 'C']);
  assert.deepEqual(valueNames(text, '@portal/domain'), ['F']);
});

test("a name imported through the barrel reaches the file that declares it and that file's own imports", () => {
  const reached = reachedFrom(`import { REQUEST_ADMIN_API } from '@portal/contracts';`);
  assert.ok(reached.includes('libs/contracts/src/requestAdmin.ts'), reached.join(', '));
  // requestAdmin.ts imports './common' and './requests' for values.
  assert.ok(reached.includes('libs/contracts/src/common.ts'), reached.join(', '));
  assert.ok(reached.includes('libs/contracts/src/requests.ts'), reached.join(', '));
  assert.ok(!reached.includes('libs/contracts/src/iris.ts'), 'a file nothing imports is not reached');
});

test('a type-only import reaches nothing', () => {
  assert.deepEqual(reachedFrom(`import type { RequestRow } from '@portal/contracts';`), []);
});

test('the shared files are source files of the two libraries that the shell and a remote both reach', () => {
  const shared = libraryFilesSharedWithShell();
  assert.ok(shared.length > 0);
  for (const file of shared) {
    assert.match(path.relative(workspaceRoot, file), /^libs\/(contracts|domain)\/src\/.+\.ts$/);
    assert.doesNotMatch(file, /\.test\.ts$/);
  }
  // The request console's paths: web-kit (the shell) and mf-requests-admin both use them.
  assert.ok(shared.includes(contracts('requestAdmin.ts')));
});
