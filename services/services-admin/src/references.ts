import { referenceKey } from '@portal/domain';
import { badRequest } from '@portal/server-kit';

const REFERENCE_TEXT = {
  needsLabel: 'A reference needs a label.',
  duplicateKey: (key: string) => `Two references have the key ${key}.`,
  badFlag: (label: string, flag: string) => `The ${flag} flag of reference '${label}' must be true or false.`,
  badPattern: (label: string) => `The pattern of reference '${label}' is not a valid regular expression.`,
  badMessage: (label: string) => `The message of reference '${label}' must be text.`,
} as const;

/** The request form compiles the pattern: it must be a string that compiles ('' means none). */
function isPattern(pattern: unknown): boolean {
  if (typeof pattern !== 'string') return false;
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks and completes a group's reference list (spec 01 §3 format `[label, key, position, required,
 * regex, message, hidden?]`; the groups grid sends the short form `[label, key, position, true]`, spec 03
 * §3). A blank label is refused; a missing key is made from the label; a missing position is the entry's
 * place and a missing required flag is true (the short form's). Longer entries keep their extra items,
 * checked for type, so the request form can rely on them.
 */
export function normaliseReferences(entries: readonly unknown[][]): unknown[][] {
  const keys = new Set<string>();
  return entries.map((entry, index) => {
    const [label, key, position, required = true, pattern, message, hidden] = entry;
    if (typeof label !== 'string' || label.trim() === '') throw badRequest(REFERENCE_TEXT.needsLabel);
    const name = label.trim();
    const finalKey = typeof key === 'string' && key.trim() !== '' ? key.trim() : referenceKey(name);
    if (keys.has(finalKey)) throw badRequest(REFERENCE_TEXT.duplicateKey(finalKey));
    keys.add(finalKey);
    const finalPosition = typeof position === 'number' && Number.isInteger(position) ? position : index;
    if (typeof required !== 'boolean') throw badRequest(REFERENCE_TEXT.badFlag(name, 'required'));
    if (pattern !== undefined && pattern !== null && !isPattern(pattern)) {
      throw badRequest(REFERENCE_TEXT.badPattern(name));
    }
    if (message !== undefined && message !== null && typeof message !== 'string') {
      throw badRequest(REFERENCE_TEXT.badMessage(name));
    }
    if (hidden !== undefined && typeof hidden !== 'boolean')
      throw badRequest(REFERENCE_TEXT.badFlag(name, 'hidden'));
    return [name, finalKey, finalPosition, required, ...entry.slice(4)];
  });
}
