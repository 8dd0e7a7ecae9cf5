import { useEffect, useMemo, useRef } from 'react';
import { AVS_EDITOR_API } from '@portal/contracts';
import { heldItem, type Work } from './work';

/**
 * Gives back what the operator holds when they leave the page (or the tab closes): the next operator
 * need not wait for the hold to expire. A beacon, so it is sent even as the page goes away.
 */
export function useReleaseOnLeave(work: Work | null) {
  const body = useMemo(() => (work ? JSON.stringify(heldItem(work)) : null), [work]);
  useEffect(() => {
    if (!body) return undefined;
    const send = () => {
      if (typeof navigator.sendBeacon === 'function')
        navigator.sendBeacon(AVS_EDITOR_API.release, new Blob([body], { type: 'application/json' }));
    };
    window.addEventListener('pagehide', send);
    return () => {
      window.removeEventListener('pagehide', send);
    };
  }, [body]);
  // Leaving the page inside the portal (another route): the component goes, the hold is given back.
  const latest = useRef(body);
  useEffect(() => {
    latest.current = body;
  });
  useEffect(
    () => () => {
      if (latest.current && typeof navigator.sendBeacon === 'function')
        navigator.sendBeacon(
          AVS_EDITOR_API.release,
          new Blob([latest.current], { type: 'application/json' }),
        );
    },
    [],
  );
}
