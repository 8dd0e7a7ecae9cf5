import { badRequest } from '@portal/server-kit';
import { isImageId, parseStem, type ImageTarget } from './keys';

/**
 * How the calls name an image's target (spec 02 §7.1):
 *
 * - `type` of POST image and of POST image/crop: `property`, `section/{n}`, `building/{n}/{m}`,
 *   `floor/{n}/{m}/{k}`, `improvement/{n}/{i}` (a section's), `improvement/{n}/{m}/{i}` (a building's), or
 *   the stem of the image's names (`section-3-building-2`; images/keys.ts).
 * - GET image/{requestID}/{type}/{first}/{second}/{third}: the same parts, an unused one given as `-`, `_`,
 *   `null`, `undefined` or `none`; an improvement is {section}/{building or -}/{improvement}.
 */

export const TARGET_TEXT = {
  badTarget: (type: string) =>
    `'${type.slice(0, 80)}' is not an image target: use property, section/{n}, building/{n}/{m}, ` +
    `floor/{n}/{m}/{k}, improvement/{n}/{i} or improvement/{n}/{m}/{i} (identifiers of letters, digits, '_' and '-').`,
} as const;

const NONE = new Set(['', '-', '_', 'null', 'undefined', 'none']);
const part = (value: string | undefined) => (value === undefined || NONE.has(value) ? undefined : value);

/** The target of a kind and its identifiers (unused ones undefined), or null. */
export function targetOf(kind: string, first?: string, second?: string, third?: string): ImageTarget | null {
  const [a, b, c] = [part(first), part(second), part(third)];
  const ok = (...ids: (string | undefined)[]) => ids.every((id) => id !== undefined && isImageId(id));
  switch (kind) {
    case 'property':
      return { kind: 'property' };
    case 'section':
      return ok(a) ? { kind: 'section', section: a! } : null;
    case 'building':
      return ok(a, b) ? { kind: 'building', section: a!, building: b! } : null;
    case 'floor':
      return ok(a, b, c) ? { kind: 'floor', section: a!, building: b!, floor: c! } : null;
    case 'improvement':
      if (c === undefined) return ok(a, b) ? { kind: 'improvement', section: a!, improvement: b! } : null;
      if (b === undefined) return ok(a, c) ? { kind: 'improvement', section: a!, improvement: c! } : null;
      return ok(a, b, c) ? { kind: 'improvement', section: a!, building: b!, improvement: c! } : null;
    default:
      return null;
  }
}

/** The target a `type` names (slash form or stem); a 400 otherwise. */
export function parseTargetType(type: string): ImageTarget {
  const trimmed = type.trim();
  const parts = trimmed.split('/');
  const target =
    parts.length <= 4
      ? (targetOf(parts[0]!, parts[1], parts[2], parts[3]) ??
        (parts.length === 1 ? parseStem(trimmed) : null))
      : null;
  if (!target) throw badRequest(TARGET_TEXT.badTarget(type));
  return target;
}
