import multipart from '@fastify/multipart';
import { ADMIN_ROUTES, RatesAnswer, ROLE } from '@portal/contracts';
import { badRequest, fileAnswer, HttpError, type TypedFastify } from '@portal/server-kit';
import { assertMayEditRatesOf, assertMayReadRatesOf, type Guard } from '../access';
import { recordChange } from '../store/audit';
import type { ServicesAdminContext } from '../context';
import { groupOr404 } from '../store/lookups';
import { invalidRates, parseRateRows, readRates, replaceRates } from '../rates';
import {
  MAX_UPLOAD_BYTES,
  ratesFromWorkbook,
  ratesToWorkbook,
  SHEET_TEXT,
  XLSX_CONTENT_TYPE,
} from '../rates-sheet';
import { ERRORS, GroupIdParams, SaveRatesInput } from '../schemas';

const RATES_TEXT = {
  sendFile: "Send the workbook as multipart/form-data, in the field 'file'.",
} as const;

/** A file name that is safe in a Content-Disposition header, from the group's code. */
const exportFileName = (code: string) => `rates-${code.replace(/[^A-Za-z0-9_-]+/g, '_') || 'group'}.xlsx`;

/**
 * A group's rate table (spec 03 "Rates editor", spec 02 §3 Rate row): read, replaced whole on save, and
 * exported to and imported from a spreadsheet. Admins may work on any group's table, rates editors on
 * their own group's.
 */
export async function rateRoutes(app: TypedFastify, { ds }: ServicesAdminContext, guard: Guard) {
  const ratesAccess = guard(ROLE.admin, ROLE.ratesEditor);
  // The report builder (services/reportbuilder's users) reads the rates; only admins and editors change them.
  const ratesReadAccess = guard(ROLE.admin, ROLE.ratesEditor, ROLE.saviOperator, ROLE.saviQC);
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });

  /** The group of a path or body, after the caller's access to its rates is checked. */
  const groupFor = async (
    request: { actor: Parameters<typeof assertMayEditRatesOf>[0] },
    groupId: string,
  ) => {
    const group = await groupOr404(ds.manager, groupId);
    assertMayEditRatesOf(request.actor, group.id);
    return group;
  };

  app.get(
    ADMIN_ROUTES.rates,
    {
      onRequest: ratesReadAccess,
      schema: {
        summary: "Read a group's rate table",
        description:
          "The group's rates for SAVi reports (building types, sizes and their rates); staff read every group's, a rates editor their own group's.",
        tags: ['Services admin'],
        params: GroupIdParams,
        response: { 200: RatesAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const group = await groupOr404(ds.manager, request.params.groupID);
      assertMayReadRatesOf(request.actor, group.id);
      return { success: true, groupID: group.id, rates: await readRates(ds.manager, group.id) };
    },
  );

  app.post(
    ADMIN_ROUTES.saveRates,
    {
      onRequest: ratesAccess,
      // 5 000 rows of JSON run past the default 1 MB.
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        summary: "Save a group's rate table",
        description: "Replaces a group's whole rate table with the rows sent (up to 5 000); audited.",
        tags: ['Services admin'],
        body: SaveRatesInput,
        response: { 200: RatesAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { groupID } = request.body;
      const group = await groupFor(request, groupID);
      const { rows, problems } = parseRateRows(request.body.rates, (index) => `Row ${index + 1}`);
      if (problems.length) throw invalidRates(problems);
      const saved = await ds.transaction(async (manager) => {
        // The row lock queues concurrent saves of one table, so each replaces a whole table.
        await groupOr404(manager, group.id, true);
        const before = await readRates(manager, group.id);
        await replaceRates(manager, group.id, rows);
        await recordChange(manager, request, {
          entity: 'rates',
          entityId: group.id,
          message: `Rates of group ${group.code} saved (${rows.length} rows)`,
          before,
          after: rows,
        });
        return readRates(manager, group.id);
      });
      return { success: true, groupID: group.id, rates: saved };
    },
  );

  app.get(
    ADMIN_ROUTES.ratesExport,
    {
      onRequest: ratesAccess,
      schema: {
        summary: "Export a group's rate table",
        description: "The group's rate table as an xlsx workbook (an attachment), to edit and import again.",
        tags: ['Services admin'],
        params: GroupIdParams,
        response: { 200: fileAnswer(XLSX_CONTENT_TYPE, 'The rate table as a workbook.'), ...ERRORS },
      },
    },
    async (request, reply) => {
      const group = await groupFor(request, request.params.groupID);
      const workbook = await ratesToWorkbook(await readRates(ds.manager, group.id), `Rates of ${group.name}`);
      return reply
        .type(XLSX_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="${exportFileName(group.code)}"`)
        .header('cache-control', 'no-store')
        .send(workbook);
    },
  );

  // Answers the rows read from the workbook without saving them: the editor shows them in its grid, where
  // they can be checked and corrected, and the user saves as usual (one way to change a table, audited).
  app.post(
    ADMIN_ROUTES.ratesImport,
    {
      onRequest: ratesAccess,
      schema: {
        summary: 'Read a rate table from a workbook',
        description:
          'Reads the rows of an uploaded xlsx workbook and answers them without saving, for the editor to check and save.',
        tags: ['Services admin'],
        params: GroupIdParams,
        response: { 200: RatesAnswer, 413: ERRORS[400], ...ERRORS },
      },
    },
    async (request) => {
      const group = await groupFor(request, request.params.groupID);
      if (!request.isMultipart()) throw badRequest(RATES_TEXT.sendFile);
      let file: Buffer;
      try {
        const part = await request.file();
        if (!part || part.fieldname !== 'file') throw badRequest(RATES_TEXT.sendFile);
        file = await part.toBuffer();
      } catch (err) {
        if (err instanceof app.multipartErrors.RequestFileTooLargeError)
          throw new HttpError(413, SHEET_TEXT.tooLarge);
        if (err instanceof HttpError) throw err;
        // A body that is not multipart as its header says (no boundary, cut off): the caller's, a 400.
        throw badRequest(RATES_TEXT.sendFile);
      }
      return { success: true, groupID: group.id, rates: await ratesFromWorkbook(file) };
    },
  );
}
