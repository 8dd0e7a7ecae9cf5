import { createAction } from '@reduxjs/toolkit';

/**
 * The session is over (log out, or a 401 from a call). The root reducer answers it by returning every
 * slice, injected ones included, to its initial state; the api cache is reset alongside (endSession).
 */
export const sessionEnded = createAction('session/ended');
