import { ROLE } from '@portal/contracts';
import { forbidden, isStaff, type Caller } from '@portal/server-kit';
import { QUEUE_TEXT } from './texts';

/**
 * Who may make the queue's calls (docs/decisions.md "Request queue"); the route table
 * (libs/domain/src/routeAccess.ts) gates the same roles first, these checks are the service's own.
 */

/** Spec 02 §2.2: the console (and its calls) is for admins and SAVi operators. */
export const CONSOLE_ROLES: readonly string[] = [ROLE.admin, ROLE.saviOperator];

export const isConsoleUser = (caller: Pick<Caller, 'roles'>) =>
  caller.roles.some((role) => CONSOLE_ROLES.includes(role));

export const isAdmin = (caller: Pick<Caller, 'roles'>) => caller.roles.includes(ROLE.admin);

export function requireConsoleUser(caller: Caller): void {
  if (!isConsoleUser(caller)) throw forbidden(QUEUE_TEXT.console);
}

export function requireStaff(caller: Caller): void {
  if (!isStaff(caller)) throw forbidden(QUEUE_TEXT.staff);
}

/** A request's own user, or staff (who see every request). */
export function requireOwnerOrStaff(caller: Caller, ownerId: string): void {
  if (ownerId !== caller.id && !isStaff(caller)) throw forbidden(QUEUE_TEXT.notYours);
}
