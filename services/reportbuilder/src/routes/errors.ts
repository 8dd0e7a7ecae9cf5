import { ErrorAnswer } from '@portal/contracts';

/** The error answers every report builder call may give (the one error shape, server-kit). */
export const ERRORS = {
  400: ErrorAnswer,
  401: ErrorAnswer,
  403: ErrorAnswer,
  404: ErrorAnswer,
  409: ErrorAnswer,
} as const;
