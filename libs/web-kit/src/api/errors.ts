import type { FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { TEXT } from '@portal/domain';

/**
 * The one error shape the UI sees from any call. `status` is the HTTP status, or 0 when no answer
 * arrived (network failure, timeout, unreadable body). `messages` carries several messages when the
 * service gave them (e.g. registration).
 */
export interface PortalError {
  status: number;
  message: string;
  messages?: string[];
}

export function isPortalError(value: unknown): value is PortalError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PortalError).status === 'number' &&
    typeof (value as PortalError).message === 'string'
  );
}

/** Turns a fetchBaseQuery error (any status, any body) into a PortalError. */
export function toPortalError(error: FetchBaseQueryError): PortalError {
  if (typeof error.status !== 'number') return { status: 0, message: TEXT.unknownError };
  return { status: error.status, ...messagesOf(error.data) };
}

/**
 * Services answer `{ statusCode, error, message, messages? }`; older answers may be a bare string.
 * Anything else becomes the spec's 'Unknown error'.
 */
function messagesOf(body: unknown): Pick<PortalError, 'message' | 'messages'> {
  if (typeof body === 'string' && body.trim() !== '') return { message: body.trim() };
  if (typeof body !== 'object' || body === null) return { message: TEXT.unknownError };
  const { message, messages } = body as { message?: unknown; messages?: unknown };
  const list = Array.isArray(messages) ? messages.filter((m): m is string => typeof m === 'string') : [];
  const text = typeof message === 'string' && message !== '' ? message : (list[0] ?? TEXT.unknownError);
  return list.length > 0 ? { message: text, messages: list } : { message: text };
}

/** The messages to show for an error: its list when it has one, otherwise its message. */
export function errorMessages(error: unknown): string[] {
  if (!isPortalError(error)) return [TEXT.unknownError];
  return error.messages && error.messages.length > 0 ? error.messages : [error.message];
}
