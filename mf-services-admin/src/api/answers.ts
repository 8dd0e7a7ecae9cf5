import type { BaseQueryFn, FetchArgs } from '@reduxjs/toolkit/query';
import { TEXT } from '@portal/domain';
import type { PortalError } from '@portal/web-kit';

type PortalBaseQuery = BaseQueryFn<string | FetchArgs, unknown, PortalError>;
type QueryResult<T> = { data: T } | { error: PortalError };

/**
 * Runs a call whose answer says `success` (spec 03 §7: "reads success and group"): an answer without
 * `success: true` is a failure too, reported as the spec's 'Unknown error' (spec 03 §8).
 */
export async function successfulAnswer<Answer extends { success: boolean }, T>(
  baseQuery: (args: string | FetchArgs) => ReturnType<PortalBaseQuery>,
  args: string | FetchArgs,
  pick: (answer: Answer) => T,
): Promise<QueryResult<T>> {
  const result = await baseQuery(args);
  if (result.error) return { error: result.error };
  const answer = result.data as Answer | undefined;
  if (!answer?.success) return { error: { status: 200, message: TEXT.unknownError } };
  return { data: pick(answer) };
}

/**
 * The one line to show for a failed action: the spec's text, then the service's reason when it gave
 * one (e.g. why a group cannot be deleted).
 */
export function failureText(specText: string, error: unknown): string {
  const reason = reasonOf(error);
  return reason ? `${specText}: ${reason}` : specText;
}

/** The service's own message, unless it is the catch-all 'Unknown error'. */
export function reasonOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { message } = error as { message?: unknown };
  return typeof message === 'string' && message !== '' && message !== TEXT.unknownError ? message : undefined;
}
