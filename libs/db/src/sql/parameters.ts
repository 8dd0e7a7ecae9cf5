/**
 * Binding values to a statement, written once for every service that builds SQL by hand: the values are
 * always parameters, never text in the statement.
 */

/**
 * Collects the values of a statement and hands out their placeholders ($1, $2, …, or as `placeholder`
 * writes the n-th: elements of one array parameter, for SQL run by EXECUTE … USING; or numbered on from
 * values bound elsewhere).
 */
export class SqlParameters {
  readonly values: unknown[];

  constructor(
    values: readonly unknown[] = [],
    private readonly placeholder: (n: number) => string = (n) => `$${n}`,
  ) {
    this.values = [...values];
  }

  /** Adds `value` and answers its placeholder. */
  bind(value: unknown): string {
    this.values.push(value);
    return this.placeholder(this.values.length);
  }
}

/** Makes text match itself in LIKE/ILIKE (PostgreSQL's default escape character is the backslash). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern that finds `text` anywhere, its own % _ and \ taken literally. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;
