import type { CantLocateItem, QueuedParcel, ReleaseBody } from '@portal/contracts';
import type { ParcelQueue } from '../../api/editorApi';

/** What the operator is working on: a parcel from one of the queues, or a can't-locate request. */
export type Work = (
  { kind: ParcelQueue; parcel: QueuedParcel } | { kind: 'cantLocate'; request: CantLocateItem }
) & {
  /** What is left in the queue, counted up to QUEUE_COUNT_LIMIT. */
  remaining: number;
};

/** A line above the map: what a queue or a resolved request had to say. */
export interface Notice {
  severity: 'info' | 'success' | 'warning' | 'error';
  text: string;
}

/** What giving the work back releases: the request or the parcel held. */
export const heldItem = (work: Work): ReleaseBody =>
  work.kind === 'cantLocate'
    ? { kind: 'request', id: work.request.requestId }
    : { kind: 'parcel', id: work.parcel.parcelId };
