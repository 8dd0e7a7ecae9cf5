import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

/**
 * How deep a JSON body may nest. No form or call of the portal comes near it; far deeper, the body parses
 * (JSON.parse does not recurse on the stack) but every JSON.stringify of it — TypeORM's jsonb columns, a
 * service's own, the answer's serializer — throws "Maximum call stack size exceeded": a 500, found by the
 * hostile-input suite (audit/src/hostile-input.test.ts) with 10 000 levels of arrays in a free-form field.
 */
export const JSON_MAX_DEPTH = 64;

/** The nesting depth of a JSON text (its brackets outside strings), read without parsing; stops past `limit`. */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Fastify's own JSON parser (prototype poisoning refused, an empty body a 400) behind a depth check: a body
 * nested deeper than JSON_MAX_DEPTH is a 400 before it is parsed.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepth(text, JSON_MAX_DEPTH) > JSON_MAX_DEPTH) {
      done(badRequest(`The JSON body is nested deeper than ${JSON_MAX_DEPTH} levels.`), undefined);
      return;
    }
    parse(request, text, done);
  });
}
