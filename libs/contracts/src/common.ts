import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** The one error shape every service answers with (4xx and 5xx alike). */
export const ErrorAnswer = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
    /** Several messages, when a form has more than one problem (e.g. registration). */
    messages: Type.Optional(Type.Array(Type.String())),
    requestId: Type.Optional(Type.String()),
  },
  { $id: 'ErrorAnswer' },
);
export type ErrorAnswer = Static<typeof ErrorAnswer>;

/**
 * The error answers a route may give, for its response schema: `errorAnswers(400, 401, 403)` is
 * `{ 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer }`. Every service lists its routes' errors this one way.
 */
export function errorAnswers<const Code extends number>(
  ...codes: Code[]
): { [C in Code]: typeof ErrorAnswer } {
  return Object.fromEntries(codes.map((code) => [code, ErrorAnswer])) as { [C in Code]: typeof ErrorAnswer };
}

export const MessageAnswer = Type.Object({ message: Type.String() });
export type MessageAnswer = Static<typeof MessageAnswer>;

export const SuccessAnswer = Type.Object({ success: Type.Boolean(), message: Type.Optional(Type.String()) });
export type SuccessAnswer = Static<typeof SuccessAnswer>;

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type IdParams = Static<typeof IdParams>;

export const HealthAnswer = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  service: Type.String(),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type HealthAnswer = Static<typeof HealthAnswer>;

/** `schema` or null. */
export const nullable = <T extends TSchema>(schema: T) => Type.Union([Type.Null(), schema]);

/** A schema of one of `values` (typed as their union, which Type.Union over a mapped list loses). */
export function literalUnion<T extends string | number>(values: readonly T[]) {
  return Type.Unsafe<T>(Type.Union(values.map((value) => Type.Literal(value))));
}
