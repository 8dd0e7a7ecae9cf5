import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AddressEditorData } from '@portal/contracts';
import { formatSaTime } from '@portal/domain';
import type { ParcelQueue } from '../../../api/editorApi';
import { TEXT } from '../../../texts';
import type { Work } from '../work';

const QUEUE_NAMES: Record<ParcelQueue, string> = {
  multi: 'Multi-address parcel',
  empty: 'Empty parcel',
  validate: 'Parcel to validate',
};

/**
 * The item the operator holds: a can't-locate request (what the user searched for, their comments, who
 * asked) or a parcel (its erf number once its data is read), until when it is held, how many more wait;
 * Parcel done for a multi-address parcel, and Give back.
 */
export function WorkItemCard({
  work,
  data,
  parcelDoneDisabled,
  onParcelDone,
  onRelease,
}: {
  work: Work;
  /** The point data under the marker (the parcel's, once it is read). */
  data: AddressEditorData | undefined;
  parcelDoneDisabled: boolean;
  onParcelDone: () => void;
  onRelease: () => void;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5, mb: 1.5 }} data-testid="work-item">
      {work.kind === 'cantLocate' ? (
        <Stack spacing={0.5}>
          <Typography variant="subtitle1">{`Can't-locate request ${work.request.gripReference}`}</Typography>
          <Typography variant="body2">{`Address as the user had it: ${work.request.query ?? work.request.searchedFor ?? '–'}`}</Typography>
          {work.request.comments && (
            <Typography variant="body2">{`Comments: ${work.request.comments}`}</Typography>
          )}
          <Typography variant="body2" color="text.secondary">
            {`${work.request.requestedBy}${work.request.group ? ` · ${work.request.group}` : ''} · ${TEXT.held(formatSaTime(work.request.heldUntil))} · ${TEXT.waiting(work.remaining)}`}
          </Typography>
        </Stack>
      ) : (
        <Typography variant="subtitle1">
          {`${QUEUE_NAMES[work.kind]} ${data?.parcelId === work.parcel.parcelId && data.parcelNo ? `Erf ${data.parcelNo}` : work.parcel.parcelId} · ${TEXT.held(formatSaTime(work.parcel.heldUntil))} · ${TEXT.waiting(work.remaining)}`}
        </Typography>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        {work.kind === 'multi' && (
          <Button size="small" variant="outlined" disabled={parcelDoneDisabled} onClick={onParcelDone}>
            {TEXT.parcelDone}
          </Button>
        )}
        <Button size="small" onClick={onRelease}>
          {TEXT.release}
        </Button>
      </Stack>
    </Paper>
  );
}
