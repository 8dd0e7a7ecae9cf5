import { errorAnswers } from '@portal/contracts';

/** The error answers every report builder call may give (the one error shape, server-kit). */
export const ERRORS = errorAnswers(400, 401, 403, 404, 409);
