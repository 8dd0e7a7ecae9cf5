import { useEffect, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import { REALTIME_EVENTS, REALTIME_PATH, type ConsoleJob, type RequestRow } from '@portal/contracts';

/** The console's background job events (services/requests relays them to the job's user). */
export const CONSOLE_JOB_EVENT = 'console_job';

export interface RequestEventHandlers {
  /** update_request: one request changed; its row as it is now. */
  onRequest?: (row: RequestRow) => void;
  /** update_requests: several changed (a bulk action, a new request): read the page again. */
  onRequests?: (ids: string[]) => void;
  onJob?: (job: ConsoleJob) => void;
}

/**
 * How long one connection attempt may take. While services/requests restarts, the gateway accepts the
 * websocket and closes it when it cannot reach the service, before socket.io's handshake: socket.io-client
 * gives such an attempt up only on this timeout (20 s by default), so the console stayed offline that long
 * after the service was back. With 5 s it reconnects within seconds (scripts/lib/faults.test.mjs).
 */
export const REALTIME_CONNECT_TIMEOUT_MS = 5_000;

/**
 * The pauses before asking again after the service refused the handshake (its session check could not
 * reach Redis, say): socket.io-client does not reconnect by itself after a refusal, so the console would
 * stay offline until a reload. First 2 s, doubling to 30 s.
 */
export const REALTIME_REFUSED_RETRY_MS = { first: 2_000, most: 30_000 };

/**
 * Asks again, after a growing pause, whenever the server refuses the socket's handshake (see
 * REALTIME_REFUSED_RETRY_MS); a connection resets the pause. Answers the function that stops it.
 */
export function retryRefusedHandshakes(socket: Socket, pauses = REALTIME_REFUSED_RETRY_MS): () => void {
  let pause = pauses.first;
  let timer: ReturnType<typeof setTimeout> | undefined;
  socket.on('connect', () => {
    pause = pauses.first;
  });
  socket.on('connect_error', () => {
    // Still active: socket.io retries itself (the service was unreachable). Not active: refused.
    if (socket.active) return;
    clearTimeout(timer);
    timer = setTimeout(() => socket.connect(), pause);
    pause = Math.min(pause * 2, pauses.most);
  });
  return () => clearTimeout(timer);
}

/**
 * The console's realtime channel (spec 02 §7.2): socket.io on the portal's own origin at REALTIME_PATH,
 * through the gateway, signed in by the session cookie. Answers whether it is connected (the grid shows
 * it); socket.io reconnects by itself, and a reconnect reads the page again (changes may have been missed).
 */
export function useRequestEvents(handlers: RequestEventHandlers): boolean {
  const latest = useRef(handlers);
  latest.current = handlers;
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const socket = io({
      path: REALTIME_PATH,
      transports: ['websocket'],
      withCredentials: true,
      timeout: REALTIME_CONNECT_TIMEOUT_MS,
    });
    let connectedBefore = false;
    const stopRetrying = retryRefusedHandshakes(socket);
    socket.on('connect', () => {
      setConnected(true);
      if (connectedBefore) latest.current.onRequests?.([]);
      connectedBefore = true;
    });
    socket.on('disconnect', () => setConnected(false));
    socket.on(REALTIME_EVENTS.updateRequest, (payload: { row: RequestRow }) =>
      latest.current.onRequest?.(payload.row),
    );
    socket.on(REALTIME_EVENTS.updateRequests, (payload: { ids: string[] }) =>
      latest.current.onRequests?.(payload.ids),
    );
    socket.on(CONSOLE_JOB_EVENT, (job: ConsoleJob) => latest.current.onJob?.(job));
    return () => {
      stopRetrying();
      socket.close();
    };
  }, []);
  return connected;
}
