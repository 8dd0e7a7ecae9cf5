import type { ApiKeyScope, CreateApiKeyBody } from '@portal/contracts';
import { API_KEYS_TEXT } from '../../texts';

/** What the create dialog holds while it is filled in. */
export interface KeyForm {
  name: string;
  services: string[];
  scope: ApiKeyScope;
  /** yyyy-mm-dd from the date field, or '' for no expiry. */
  expires: string;
  roles: string[];
}

export const emptyKeyForm = (): KeyForm => ({
  name: '',
  services: [],
  scope: 'read',
  expires: '',
  roles: [],
});

export type KeyFormProblems = Partial<Record<'name' | 'services' | 'expires', string>>;

/** The end of the chosen day in South Africa (SAST, UTC+2): the key works through that whole day. */
export const expiryInstant = (date: string) => new Date(`${date}T23:59:59.999+02:00`);

/** The form's problems, checked as the service will (a name, a service, an expiry after now). */
export function keyFormProblems(form: KeyForm, now = new Date()): KeyFormProblems {
  const problems: KeyFormProblems = {};
  if (!form.name.trim()) problems.name = API_KEYS_TEXT.nameRequired;
  if (form.services.length === 0) problems.services = API_KEYS_TEXT.servicesRequired;
  if (form.expires) {
    const at = expiryInstant(form.expires);
    if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime())
      problems.expires = API_KEYS_TEXT.expiryPast;
  }
  return problems;
}

/** The call's body: roles only when some are chosen (administrators). */
export function keyBody(form: KeyForm): CreateApiKeyBody {
  return {
    name: form.name.trim(),
    services: form.services as CreateApiKeyBody['services'],
    scope: form.scope,
    expiresAt: form.expires ? expiryInstant(form.expires).toISOString() : null,
    ...(form.roles.length > 0 ? { roles: form.roles as NonNullable<CreateApiKeyBody['roles']> } : {}),
  };
}
