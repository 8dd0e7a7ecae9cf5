import { TEXT } from '@portal/domain';
import { errorMessages, isPortalError } from '@portal/web-kit';

/**
 * What to show when setting a new password failed (spec 01 §8): the service's 'Token invalid or expired'
 * becomes the spec's sentence; anything else is shown as the validation messages it carries.
 */
export function newPasswordFailure(error: unknown): string[] {
  if (isPortalError(error) && error.message === TEXT.tokenInvalidOrExpired) return [TEXT.resetInvalidToken];
  return errorMessages(error);
}
