/**
 * How the image-upload window tells the capture screen that opened it that the request's uploads changed:
 * a BroadcastChannel (same origin; works whether or not the opener is still the window that opened it,
 * and reaches every capture screen open on the request). Where there is none, nothing is sent and the
 * capture screen's 'Refresh' button fetches the thumbnails again.
 */
export const IMAGE_CHANNEL = 'reportbuilder-images';

export interface UploadsChangedMessage {
  kind: 'uploads-changed';
  requestID: string;
}

const channel = () => (typeof BroadcastChannel === 'function' ? new BroadcastChannel(IMAGE_CHANNEL) : null);

export function announceUploads(requestID: string) {
  const c = channel();
  if (!c) return;
  c.postMessage({ kind: 'uploads-changed', requestID } satisfies UploadsChangedMessage);
  c.close();
}

/** Calls `onChange` when another window changed the request's uploads; answers the unsubscribe. */
export function listenForUploads(requestID: string, onChange: () => void): () => void {
  const c = channel();
  if (!c) return () => {};
  c.onmessage = (event: MessageEvent<UploadsChangedMessage>) => {
    if (event.data?.kind === 'uploads-changed' && event.data.requestID === requestID) onChange();
  };
  return () => c.close();
}
