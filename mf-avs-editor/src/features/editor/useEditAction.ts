import { useCallback, useState } from 'react';
import { errorMessages, isPortalError, useAppDispatch } from '@portal/web-kit';
import { editorApi } from '../../api/editorApi';
import { TEXT } from '../../texts';

export interface EditOutcome {
  severity: 'success' | 'error' | 'warning';
  text: string;
}

/**
 * Runs one of the editor's calls and says how it went: the service's own message on a refusal (a 409
 * names what changed or which rule refused it, a 400 what is wrong), and after a 409 the map and panel
 * are read again, since what the operator saw is no longer so.
 */
export function useEditAction() {
  const dispatch = useAppDispatch();
  const [outcome, setOutcome] = useState<EditOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async <T>(call: () => Promise<T>, success: string | ((answer: T) => string) = TEXT.saved) => {
      setBusy(true);
      try {
        const answer = await call();
        setOutcome({ severity: 'success', text: typeof success === 'function' ? success(answer) : success });
        return answer;
      } catch (error) {
        const stale = isPortalError(error) && error.status === 409;
        setOutcome({ severity: stale ? 'warning' : 'error', text: errorMessages(error).join(' ') });
        if (stale) dispatch(editorApi.util.invalidateTags([{ type: 'AvsEditor', id: 'POINT' }]));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [dispatch],
  );
  return { run, outcome, setOutcome, busy };
}
