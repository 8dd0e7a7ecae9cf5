// How npm test (scripts/test.mjs) reads a runner's output as it streams: counts, and the failures to name in
// its summary.

const ANSI = /\x1b\[[0-9;]*m/g; // eslint-disable-line no-control-regex
const countOf = (text, word) => Number(new RegExp(`(\\d+) ${word}`).exec(text)?.[1] ?? 0);

/** The lines of a failing Jest test's reason kept under its name. */
export const JEST_REASON_LINES = 4;

/**
 * Adds up Jest's per-project summary lines: "Tests:       1 failed, 2 skipped, 45 passed, 48 total", and
 * keeps the failing files ("FAIL src/x.test.ts", prefixed by nx with the project), the failing tests
 * ("● a › b") and, under each test, the first lines of why it failed (the matcher, Expected, Received), so a
 * failure seen once on CI can be told apart from the next. Jest prints failures twice when it runs several
 * files (as they happen and in its closing summary): each is kept once.
 */
export function jestCounter() {
  let passed = 0;
  let failed = 0;
  let seen = false;
  const failures = [];
  let reasonLinesLeft = 0;
  let prefix = '';
  const keep = (line) => {
    if (failures.includes(line)) return false;
    failures.push(line);
    return true;
  };
  return {
    onLine(line) {
      const plain = line.replace(ANSI, '');
      const failedFile = /^(?:(\S+):\s+)?FAIL\s+(?:\S+\s+)?(\S+\.test\.\w+)/.exec(plain);
      if (failedFile) keep(`${failedFile[1] ? `${failedFile[1]}: ` : ''}${failedFile[2]}`);
      const failedTest = /^(\S+:)?\s+● (?!Console)(.+›.+|.+)$/.exec(plain);
      if (failedTest) {
        prefix = failedTest[1] ?? '';
        const name = failedTest[2].trim();
        // A suite that failed to run is named by its FAIL line; its reason (a type error, a missing module) follows.
        const isNew = /^Test suite failed to run/.test(name) || keep(`  ${name}`);
        reasonLinesLeft = isNew ? JEST_REASON_LINES : 0;
      } else if (reasonLinesLeft > 0) {
        const reason = (plain.startsWith(prefix) ? plain.slice(prefix.length) : plain).trim();
        if (/^at /.test(reason)) reasonLinesLeft = 0;
        else if (reason) {
          failures.push(`      ${reason.slice(0, 160)}`);
          reasonLinesLeft -= 1;
        }
      }
      const summary = /Tests:\s+(.*\d+ total)/.exec(plain);
      if (!summary) return;
      reasonLinesLeft = 0;
      seen = true;
      passed += countOf(summary[1], 'passed');
      failed += countOf(summary[1], 'failed');
    },
    counts: () => (seen ? { passed, failed } : undefined),
    failures: () => failures,
  };
}
