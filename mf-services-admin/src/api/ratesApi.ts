import { ADMIN_API, type RateRow, type RatesAnswer, type SaveRatesBody } from '@portal/contracts';
import { baseApi } from '@portal/web-kit';
import { successfulAnswer } from './answers';

/**
 * A group's rate table (spec 03 §7: GET/POST reportbuilder/rates), and its spreadsheet import. The
 * export is a plain download of ADMIN_API.ratesExport.
 */
export const ratesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    rates: build.query<RateRow[], string>({
      queryFn: (groupID, _api, _extra, baseQuery) =>
        successfulAnswer(baseQuery, ADMIN_API.rates(groupID), (answer: RatesAnswer) => answer.rates),
      providesTags: (_rates, _error, groupID) => [{ type: 'Rates', id: groupID }],
    }),
    saveRates: build.mutation<RateRow[], SaveRatesBody>({
      queryFn: (body, _api, _extra, baseQuery) =>
        successfulAnswer(
          baseQuery,
          { url: ADMIN_API.saveRates, method: 'POST', body },
          (answer: RatesAnswer) => answer.rates,
        ),
      // The answer is the table as saved: it becomes the cached table at once, so the editor does not
      // show the old one while it would be read again.
      async onQueryStarted({ groupID }, { dispatch, queryFulfilled }) {
        try {
          const { data: saved } = await queryFulfilled;
          dispatch(ratesApi.util.upsertQueryData('rates', groupID, saved));
        } catch {
          // A failed save changes nothing; the editor reports it.
        }
      },
    }),
    /** Reads an .xlsx rate table into rows; nothing is saved until the user saves them. */
    importRates: build.mutation<RateRow[], { groupID: string; file: File }>({
      queryFn: ({ groupID, file }, _api, _extra, baseQuery) => {
        const body = new FormData();
        body.append('file', file, file.name);
        return successfulAnswer(
          baseQuery,
          { url: ADMIN_API.ratesImport(groupID), method: 'POST', body },
          (answer: RatesAnswer) => answer.rates,
        );
      },
    }),
  }),
});

export const { useRatesQuery, useSaveRatesMutation, useImportRatesMutation } = ratesApi;
