// What the generator's command lines (generate-cli.ts, osm-export-cli.ts) share: their output and the
// options they both take, read and refused alike.

export const print = (line: string) => process.stdout.write(`${line}\n`);

/** A count as the CLIs print it: South African grouping with a plain space ("1 000 000"). */
export const figure = (value: number) => value.toLocaleString('en-ZA').replace(/\s/g, ' ');

/**
 * --scale as a whole number of addresses ("1_000_000", "1 000 000" and "1,000,000" read alike), the default
 * when not given; undefined, with the reason and the usage printed, when it is not one.
 */
export function readScaleOption(
  value: string | undefined,
  fallback: number,
  usage: string,
): number | undefined {
  const scale = value === undefined ? fallback : Number(value.replace(/[_ ,]/g, ''));
  if (Number.isInteger(scale) && scale >= 1) return scale;
  console.error(`--scale must be a whole number of addresses (1 or more), got "${value}"\n\n${usage}`);
  return undefined;
}

/** --towns as a list of names (comma-separated, blanks dropped). */
export const readTownsOption = (value: string | undefined) =>
  value
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
