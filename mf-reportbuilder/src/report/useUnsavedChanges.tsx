import { useCallback, useEffect, useRef, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { CLOSE_WINDOW_WARNING } from '@portal/domain';
import { useBlocker } from '@portal/web-kit';
import { TEXT } from '../texts';

/**
 * Spec 02 §4.4: edits mark the page unsaved; leaving it then opens a save prompt, and closing the window
 * warns with CLOSE_WINDOW_WARNING. `save` answers true when everything was saved. The flag is kept in a
 * ref as well, so that a navigation right after a save (same tick) is not blocked.
 */
export function useUnsavedChanges(dirty: boolean, save: () => Promise<boolean>) {
  const dirtyRef = useRef(dirty);
  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);
  /** Lets the next navigation through at once (after a save, before the page has rendered clean). */
  const markClean = useCallback(() => {
    dirtyRef.current = false;
  }, []);

  useEffect(() => {
    if (!dirty) return undefined;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = CLOSE_WINDOW_WARNING;
      return CLOSE_WINDOW_WARNING;
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const [saving, setSaving] = useState(false);

  const prompt = (
    <Dialog open={blocker.state === 'blocked'} onClose={() => blocker.reset?.()}>
      <DialogTitle>{TEXT.leaveTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText>{TEXT.leaveText}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => blocker.reset?.()}>{TEXT.leaveStay}</Button>
        <Button
          onClick={() => {
            markClean();
            blocker.proceed?.();
          }}
        >
          {TEXT.leaveDiscard}
        </Button>
        <Button
          variant="contained"
          disabled={saving}
          onClick={async () => {
            setSaving(true);
            const ok = await save();
            setSaving(false);
            if (ok) blocker.proceed?.();
            else blocker.reset?.();
          }}
        >
          {TEXT.leaveSave}
        </Button>
      </DialogActions>
    </Dialog>
  );

  return { markClean, prompt };
}
