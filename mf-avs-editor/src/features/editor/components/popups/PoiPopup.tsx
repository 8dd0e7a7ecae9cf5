import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { EditorPoi } from '@portal/contracts';
import { detachDisabled } from '@portal/domain';
import { POI_TYPE_LABELS, TEXT } from '../../../../texts';
import type { EditOutcome } from '../../useEditAction';
import { PopupFrame } from './PopupFrame';

/** A POI's popup: what it is, what it is attached to, and Detach POI. */
export function PoiPopup({
  poi,
  busy,
  outcome,
  onClose,
  onDetach,
}: {
  poi: EditorPoi;
  busy: boolean;
  outcome: EditOutcome | null;
  onClose: () => void;
  onDetach: () => void;
}) {
  return (
    <PopupFrame label={`POI ${poi.name}`} title={poi.name} onClose={onClose} outcome={outcome}>
      <Typography variant="body2">
        {POI_TYPE_LABELS[poi.poiType] ?? poi.poiType}
        {poi.category ? ` · ${poi.category}` : ''}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {poi.addressId || poi.parentId
          ? `Attached to ${[
              poi.addressId && `address ${poi.addressId}`,
              poi.parentId && `estate POI ${poi.parentId}`,
            ]
              .filter(Boolean)
              .join(' and ')}`
          : 'Not attached'}
      </Typography>
      <Button size="small" sx={{ mt: 1 }} disabled={busy || detachDisabled(poi)} onClick={onDetach}>
        {TEXT.detachPoi}
      </Button>
    </PopupFrame>
  );
}
