import { useCallback, useEffect, useRef, useState } from 'react';

/** A message that hides itself `durationMs` after it was shown (e.g. the 2 s login error). */
export function useTimedMessage(
  durationMs: number,
): [message: string | null, show: (message: string) => void] {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const show = useCallback(
    (next: string) => {
      clearTimeout(timer.current);
      setMessage(next);
      timer.current = setTimeout(() => setMessage(null), durationMs);
    },
    [durationMs],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, show];
}
