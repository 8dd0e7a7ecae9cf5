import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from '@portal/web-kit';

/** Navigates after a pause (the spec's "goes to … after N s"); nothing happens if the page is left first. */
export function useDelayedNavigate(): (to: string, delayMs: number) => void {
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(
    (to: string, delayMs: number) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void navigate(to, { replace: true }), delayMs);
    },
    [navigate],
  );
}
