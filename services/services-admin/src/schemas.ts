import { Type } from '@sinclair/typebox';
import { errorAnswers } from '@portal/contracts';

/** The error answers every admin route can give, for the routes' response schemas. */
export const ERRORS = errorAnswers(400, 401, 403, 404, 409);

/**
 * page-for-model's query as it arrives (the contract's PageForModelQuery): every parameter a string.
 * `parsePageQuery` checks it, so that a wrong model, page or field gets a message that says what is
 * wrong instead of the validator's wording.
 */
export const PageQueryInput = Type.Object({}, { additionalProperties: Type.String({ maxLength: 500 }) });

/** A number as a client or a spreadsheet may send it: checked by `parseRateRows`, row by row. */
const Amount = Type.Union([Type.Number(), Type.String({ maxLength: 40 }), Type.Null()]);

/**
 * A rate row as the rates editor sends it (the contract's RateRow, read leniently): amounts may come as
 * text and are checked with messages naming the row and the column instead of the validator's.
 */
const RateRowInput = Type.Object({
  report: Type.Optional(Type.String({ maxLength: 100 })),
  category: Type.Optional(Type.String({ maxLength: 100 })),
  type: Type.Optional(Type.String({ maxLength: 100 })),
  class: Type.Optional(Type.String({ maxLength: 100 })),
  quantity: Type.Optional(Type.String({ maxLength: 30 })),
  increase: Type.Optional(Amount),
  standard: Type.Optional(Amount),
  inbetween: Type.Optional(Amount),
  expensive: Type.Optional(Amount),
  slope: Type.Optional(Type.Boolean()),
  fee: Type.Optional(Type.Boolean()),
  vat: Type.Optional(Type.Boolean()),
});

export const SaveRatesInput = Type.Object({
  groupID: Type.String({ minLength: 1, maxLength: 64 }),
  rates: Type.Array(RateRowInput, { maxItems: 5000 }),
});

export const GroupIdParams = Type.Object({ groupID: Type.String({ minLength: 1, maxLength: 64 }) });

export const AssignmentParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  service: Type.String({ minLength: 1, maxLength: 64 }),
});
