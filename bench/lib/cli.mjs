// The benchmarks' command line, read the same way by every bench script: `--name value` options and
// `--name` flags, and a log line prefixed with the bench's name (run.mjs runs several in one terminal).

/** The value after `--name`, or `fallback` when the option is not given. */
export function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

/** The number after `--name`, or `fallback` when the option is not given. */
export function numberOption(name, fallback) {
  const value = option(name, undefined);
  return value === undefined ? fallback : Number(value);
}

/** Whether `--name` is on the command line. */
export const flag = (name) => process.argv.includes(`--${name}`);

/** A logger whose lines start with `[bench]`. */
export const benchLog = (bench) => (line) => console.log(`[${bench}] ${line}`);
