import { useState } from 'react';
import type { LatLng } from '@portal/contracts';
import { errorMessages } from '@portal/web-kit';
import {
  useDequeueCantLocateMutation,
  useDequeueParcelMutation,
  useReleaseMutation,
  type ParcelQueue,
} from '../../api/editorApi';
import { TEXT } from '../../texts';
import { useReleaseOnLeave } from './useReleaseOnLeave';
import { heldItem, type Notice, type Work } from './work';

/**
 * The operator's work from the queues: takes the next parcel or can't-locate request (skipping the one
 * held), moves the marker to it, gives it back on request or when the page is left, and says what a
 * queue answered (empty, or an error) in a notice.
 */
export function useWorkQueue({
  moveTo,
  setSearchText,
}: {
  /** Moves the marker (and, for a jump, the map) to a point. */
  moveTo: (point: LatLng, jump: boolean) => void;
  /** Puts a request's address, as the user had it, in the search box. */
  setSearchText: (text: string) => void;
}) {
  const [work, setWork] = useState<Work | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [dequeueParcel, dequeueParcelState] = useDequeueParcelMutation();
  const [dequeueCantLocate, dequeueCantLocateState] = useDequeueCantLocateMutation();
  const [release] = useReleaseMutation();
  useReleaseOnLeave(work);

  const takeParcel = async (queue: ParcelQueue) => {
    setNotice(null);
    const skip = work && work.kind !== 'cantLocate' ? work.parcel.parcelId : undefined;
    try {
      const answer = await dequeueParcel({ queue, skip }).unwrap();
      if (!answer.parcel) {
        setWork(null);
        setNotice({ severity: 'info', text: TEXT.queueEmpty });
        return;
      }
      setWork({ kind: queue, parcel: answer.parcel, remaining: answer.remaining });
      moveTo({ lat: answer.parcel.lat, lng: answer.parcel.lng }, true);
    } catch (error) {
      setNotice({ severity: 'error', text: errorMessages(error).join(' ') });
    }
  };

  const takeCantLocate = async () => {
    setNotice(null);
    const skip = work?.kind === 'cantLocate' ? work.request.requestId : undefined;
    try {
      const answer = await dequeueCantLocate({ skip }).unwrap();
      if (!answer.request) {
        setWork(null);
        setNotice({ severity: 'info', text: TEXT.queueEmpty });
        return;
      }
      setWork({ kind: 'cantLocate', request: answer.request, remaining: answer.remaining });
      setSearchText(answer.request.query ?? answer.request.searchedFor ?? '');
      if (answer.request.lat !== null && answer.request.lng !== null)
        moveTo({ lat: answer.request.lat, lng: answer.request.lng }, true);
    } catch (error) {
      setNotice({ severity: 'error', text: errorMessages(error).join(' ') });
    }
  };

  const giveBack = async () => {
    if (!work) return;
    await release(heldItem(work));
    setWork(null);
  };

  /** The work is done (a request resolved): nothing is held any more, and the notice says so. */
  const finish = (done: Notice) => {
    setWork(null);
    setNotice(done);
  };

  return {
    work,
    notice,
    clearNotice: () => setNotice(null),
    takeParcel,
    takeCantLocate,
    giveBack,
    finish,
    /** A parcel queue's, or the can't-locate queue's, call is under way. */
    takingParcel: dequeueParcelState.isLoading,
    takingCantLocate: dequeueCantLocateState.isLoading,
  };
}
