import type { FastifyRequest } from 'fastify';
import {
  errorAnswers,
  LOCATOR_ROUTES,
  VALIDATION_BATCH_MAX,
  ValidateAnswer,
  ValidateBatchAnswer,
  ValidateBatchInput,
  ValidateInput,
} from '@portal/contracts';
import { badRequest, unauthorized, type TypedFastify } from '@portal/server-kit';
import type { LocatorContext } from '../context';
import { validateAddress, validateBatch } from '../validate/validate';
import { AVS_TEXT } from './avs';

const ERRORS = errorAnswers(400, 401, 403);

export const VALIDATION_TEXT = {
  noAddresses: 'Send at least one address to validate.',
  tooManyAddresses: `At most ${VALIDATION_BATCH_MAX} addresses can be validated in one call; send the rest in another.`,
} as const;

/**
 * Address validation, for the /avs screen: one typed address, or a batch of up to VALIDATION_BATCH_MAX
 * (a CSV file, sent in chunks). The same session rule as the address service (routes/avs.ts).
 */
export async function validateRoutes(app: TypedFastify, ctx: LocatorContext): Promise<void> {
  // The session itself (401) is the route table's gate (libs/domain/src/routeAccess.ts), which runs first
  // and leaves the claims in request.user.
  const guard = [
    async (request: FastifyRequest) => {
      if (!request.user.email?.trim()) throw unauthorized(AVS_TEXT.needsEmail);
    },
  ];

  app.post(
    LOCATOR_ROUTES.validate,
    {
      onRequest: guard,
      schema: {
        summary: 'Validate an address',
        description:
          'Checks one address against the address register: whether it exists as written, the best match with its point and parcel, and what was corrected.',
        tags: ['Addresses'],
        body: ValidateInput,
        response: { 200: ValidateAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const result = await validateAddress(ctx.ds, request.body.address);
      app.meter(request, 'validation');
      return { success: true, result };
    },
  );

  app.post(
    LOCATOR_ROUTES.validateBatch,
    {
      onRequest: guard,
      schema: {
        summary: 'Validate addresses in bulk',
        description:
          'Validates up to 100 addresses in one call (send a longer list in chunks), each with its own result in the order sent; every row is metered.',
        tags: ['Addresses'],
        body: ValidateBatchInput,
        response: { 200: ValidateBatchAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { addresses } = request.body;
      if (!addresses.length) throw badRequest(VALIDATION_TEXT.noAddresses);
      if (addresses.length > VALIDATION_BATCH_MAX) throw badRequest(VALIDATION_TEXT.tooManyAddresses);
      const results = await validateBatch(ctx.ds, addresses);
      app.meter(request, 'validation_row', results.length);
      return { success: true, results };
    },
  );
}
