import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jestCounter } from './test-counters.mjs';

// As nx streams a project's Jest output: each line prefixed with the project, some coloured.
const RUN = `@portal/web-kit: PASS src/imagery/measureKeys.test.ts
@portal/web-kit: \x1b[1m\x1b[31mFAIL\x1b[39m\x1b[22m src/imagery/MeasureToolbar.test.tsx
@portal/web-kit:   ● MeasureToolbar by keyboard › finishes a distance at its second point
@portal/web-kit:
@portal/web-kit:     expect(received).toBeCloseTo(expected, precision)
@portal/web-kit:
@portal/web-kit:     Expected: 13.27
@portal/web-kit:     Received: 13.19
@portal/web-kit:
@portal/web-kit:     Expected precision:    1
@portal/web-kit:     Expected difference: < 0.05
@portal/web-kit:       at Object.<anonymous> (src/imagery/MeasureToolbar.test.tsx:126:50)
@portal/web-kit:   ● Console
@portal/web-kit:     console.warn a warning
@portal/web-kit: Summary of all failing tests
@portal/web-kit: FAIL src/imagery/MeasureToolbar.test.tsx
@portal/web-kit:   ● MeasureToolbar by keyboard › finishes a distance at its second point
@portal/web-kit:     expect(received).toBeCloseTo(expected, precision)
@portal/web-kit: Tests:       1 failed, 2 skipped, 45 passed, 48 total
@portal/geo: FAIL src/broken.test.ts
@portal/geo:   ● Test suite failed to run
@portal/geo:     Cannot find module '@portal/missing' from 'src/broken.test.ts'
@portal/geo:       at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)
@portal/geo: Tests:       3 passed, 3 total`;

test('counts every project and names each failure once, with the first lines of its reason', () => {
  const counter = jestCounter();
  for (const line of RUN.split('\n')) counter.onLine(line);
  assert.deepEqual(counter.counts(), { passed: 48, failed: 1 });
  assert.deepEqual(counter.failures(), [
    '@portal/web-kit: src/imagery/MeasureToolbar.test.tsx',
    '  MeasureToolbar by keyboard › finishes a distance at its second point',
    '      expect(received).toBeCloseTo(expected, precision)',
    '      Expected: 13.27',
    '      Received: 13.19',
    '      Expected precision:    1',
    '@portal/geo: src/broken.test.ts',
    "      Cannot find module '@portal/missing' from 'src/broken.test.ts'",
  ]);
});

test('no summary line: no counts (the step failed before Jest reported)', () => {
  const counter = jestCounter();
  counter.onLine('@portal/web-kit: Error: jest crashed');
  assert.equal(counter.counts(), undefined);
  assert.deepEqual(counter.failures(), []);
});
