/** PostgreSQL's codes of the failures a service answers itself (a 409 rather than a 500). */
export const PG_ERROR = { uniqueViolation: '23505', foreignKeyViolation: '23503' } as const;

/** The PostgreSQL error code of a failed statement (PG_ERROR), if it has one. */
export const pgErrorCode = (err: unknown): string | undefined => (err as { code?: string } | null)?.code;
