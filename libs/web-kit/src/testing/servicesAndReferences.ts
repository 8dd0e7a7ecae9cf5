import { API, type Service } from '@portal/contracts';
import { json } from './fetchAnswers';

/**
 * What the portal answers about a user's services and their group's references, for the remotes' and the
 * shell's screen tests (@portal/web-kit/testing).
 */

/** A service of the user's (spec 01 §2): active unless said otherwise. */
export const service = (identifier: string, active = true): Service => ({
  _id: `s-${identifier}`,
  identifier,
  name: identifier.toUpperCase(),
  description: '',
  url: `/${identifier}`,
  image: '',
  active,
  config: { country: 'ZA', centre: { lat: -29, lng: 24.6 }, zoom: 6 },
});

/** GET /api/v1.0/services: the user's services, active. */
export const servicesAnswer = (identifiers: string[]) => ({
  [`GET ${API.services}`]: () => json(200, { success: true, services: identifiers.map((id) => service(id)) }),
});

/** GET /api/v1.0/users/me/references: the user's group's request references (none by default). */
export const referencesAnswer = (references: unknown[] = []) => ({
  [`GET ${API.myReferences}`]: () => json(200, { claimsUser: false, references }),
});

/** KMI's references (the seed's): a required Policy Number with its regex and message, an optional one. */
export const KMI_REFERENCES = [
  [
    'Policy Number',
    'POLICY_NUMBER',
    0,
    true,
    '^[A-Z]{2}[0-9]{6}$',
    'Policy number must be two letters followed by six digits, e.g. KM123456',
  ],
  ['Broker Name', 'BROKER_NAME', 1, false, '', ''],
];
