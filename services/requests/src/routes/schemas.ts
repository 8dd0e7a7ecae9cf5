import { Type } from '@sinclair/typebox';
import { ConflictAnswer, errorAnswers } from '@portal/contracts';

/** The error answers every call of the service may give (the one error shape, server-kit). */
export const ERRORS = errorAnswers(400, 401, 403, 404);

/** A change's answers add the 409 that carries the row as it is now (or the requests a bulk change refused). */
export const CHANGE_ERRORS = { ...ERRORS, 409: ConflictAnswer } as const;

/** An id in the path, checked by the handler (checkId: a UUID, else a 400 that names it). */
export const IdParam = Type.Object({ id: Type.String({ maxLength: 64 }) });
