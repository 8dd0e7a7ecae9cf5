import { useCallback, useEffect, useState } from 'react';
import {
  type AppDispatch,
  errorMessages,
  isPortalError,
  type RootState,
  skipToken,
  useAppDispatch,
} from '@portal/web-kit';
import type { ReportSectionsBody } from '@portal/contracts';
import type { ReportSections, TotalsSettings } from '@portal/domain';
import {
  useReportDetailsQuery,
  useReportSectionsQuery,
  useReportTotalsQuery,
  useSaveSectionsMutation,
} from '../api/reportBuilderApi';
import { selectVersions } from '../state/versionSlice';
import { TEXT } from '../texts';

/** What a save tells the user: nothing (spec 02 §8: failures are only logged), or a 409 / validation message. */
export interface SaveMessage {
  severity: 'error' | 'warning' | 'success';
  text: string;
  messages?: string[];
}

/** The report's version as last seen (read when the save is sent, not when the screen rendered). */
export const readVersion =
  (requestID: string) =>
  (_dispatch: AppDispatch, getState: () => RootState): number | undefined =>
    selectVersions(getState() as Parameters<typeof selectVersions>[0])[requestID];

/**
 * Sorts a failed save into what the user is told (spec 02 §7.1, §8): a 409 (stale version, or a status
 * that does not allow editing) and a 400's validation messages are shown; anything else is logged only.
 */
export function failureMessage(error: unknown, what: string): SaveMessage | null {
  if (isPortalError(error) && error.status === 409)
    return { severity: 'warning', text: TEXT.conflict, messages: [error.message] };
  if (isPortalError(error) && error.status === 400)
    return { severity: 'error', text: error.message, messages: errorMessages(error) };
  console.error(`[reportbuilder] ${what} not saved`, error);
  return null;
}

/**
 * A request's report as the screens edit it: the sections as a local draft (replaced by the server's copy
 * until it is edited, and again after a save or a 409), the details, the totals' settings, and the save of
 * the whole sections object with the version read.
 */
export function useReport(requestID: string | null) {
  const dispatch = useAppDispatch();
  const sectionsQuery = useReportSectionsQuery(requestID ?? skipToken);
  const detailsQuery = useReportDetailsQuery(requestID ?? skipToken);
  const totalsQuery = useReportTotalsQuery(requestID ?? skipToken);
  const [saveSections] = useSaveSectionsMutation();
  const [draft, setDraft] = useState<ReportSections | null>(null);
  /** True while the draft holds edits the server has not got. */
  const [edited, setEdited] = useState(false);

  const server = sectionsQuery.data?.sections as ReportSections | undefined;
  useEffect(() => {
    if (server && !edited) setDraft(server);
  }, [server, edited]);

  const edit = useCallback((change: (sections: ReportSections) => ReportSections) => {
    setDraft((current) => (current ? change(current) : current));
    setEdited(true);
  }, []);

  /** Saves `sections` (the draft by default); answers null when saved, else what to tell the user (or nothing). */
  const save = useCallback(
    async (sections?: ReportSections): Promise<{ ok: boolean; message: SaveMessage | null }> => {
      const body = sections ?? draft;
      if (!requestID || !body) return { ok: false, message: null };
      try {
        await saveSections({
          ID: requestID,
          sections: body as ReportSectionsBody,
          version: dispatch(readVersion(requestID)),
        }).unwrap();
        setEdited(false);
        return { ok: true, message: null };
      } catch (error) {
        const message = failureMessage(error, 'sections');
        // A 409: the server's report (fetched again through the tags) replaces the draft.
        if (isPortalError(error) && error.status === 409) setEdited(false);
        return { ok: false, message };
      }
    },
    [draft, requestID, saveSections, dispatch],
  );

  const settings: TotalsSettings | null = totalsQuery.data?.settings ?? null;
  return {
    sectionsAnswer: sectionsQuery.data,
    sectionsFailed: sectionsQuery.isError,
    details: detailsQuery.data,
    settings,
    draft,
    edited,
    setEdited,
    edit,
    save,
    editable: sectionsQuery.data?.editable ?? true,
  };
}
