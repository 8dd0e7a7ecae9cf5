import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { isPortalError } from '@portal/web-kit';
import { useUploadImageMutation } from '../../../api/imagesApi';
import { useRouteParams } from '../../../report/useRouteParams';
import { announceUploads } from '../imageChannel';
import { IMAGE_TEXT } from '../imageTexts';

const PARAMS = ['requestID'] as const;
const UPLOAD_TYPES = ['image/png', 'image/jpeg'];

type Row = { name: string; state: 'waiting' | 'uploading' | 'done' | 'failed'; note?: string };

/**
 * Spec 02 §2.1 image-upload (?requestID), opened in a new window by the capture screen: several files,
 * one POST upload each in turn, the progress as files done of all; after each upload the capture screens
 * of the request hear of it on the BroadcastChannel (imageChannel.ts) and fetch their thumbnails again.
 */
export function ImageUploadPage() {
  const { requestID } = useRouteParams(PARAMS);
  const [uploadImage] = useUploadImageMutation();
  const [rows, setRows] = useState<Row[]>([]);
  const [running, setRunning] = useState(false);

  if (!requestID) return <Alert severity="info">{IMAGE_TEXT.missingTarget}</Alert>;

  const setRow = (i: number, row: Partial<Row>) =>
    setRows((current) => current.map((r, j) => (j === i ? { ...r, ...row } : r)));

  const uploadAll = async (files: File[]) => {
    setRows(files.map((f) => ({ name: f.name, state: 'waiting' })));
    setRunning(true);
    for (const [i, file] of files.entries()) {
      if (!UPLOAD_TYPES.includes(file.type)) {
        setRow(i, { state: 'failed', note: IMAGE_TEXT.uploadWrongType });
        continue;
      }
      setRow(i, { state: 'uploading' });
      try {
        await uploadImage({ requestID, file }).unwrap();
        setRow(i, { state: 'done' });
        announceUploads(requestID);
      } catch (error) {
        console.error('[reportbuilder] upload failed', error);
        setRow(i, {
          state: 'failed',
          note: isPortalError(error) && error.status === 400 ? error.message : IMAGE_TEXT.failed,
        });
      }
    }
    setRunning(false);
  };

  const finished = rows.filter((r) => r.state === 'done' || r.state === 'failed').length;
  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        Upload images
      </Typography>
      <Typography color="text.secondary">
        JPEG or PNG, up to 15 MB each. They appear in the image screens’ uploads.
      </Typography>
      <Button component="label" variant="contained" disabled={running} sx={{ my: 2 }}>
        Choose files
        <input
          hidden
          multiple
          type="file"
          accept="image/png,image/jpeg"
          aria-label="Image files"
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            if (files.length) void uploadAll(files);
          }}
        />
      </Button>
      {rows.length > 0 && (
        <>
          <LinearProgress
            variant="determinate"
            aria-label="Upload progress"
            value={(finished / rows.length) * 100}
          />
          <Typography variant="body2" sx={{ mt: 1 }}>
            {finished} of {rows.length} done
          </Typography>
          <List dense aria-label="Files">
            {rows.map((row, i) => (
              <ListItem key={`${i}-${row.name}`}>
                <ListItemText
                  primary={row.name}
                  secondary={row.note ? `${row.state}: ${row.note}` : row.state}
                />
              </ListItem>
            ))}
          </List>
        </>
      )}
      <Button onClick={() => window.close()}>Close window</Button>
    </Box>
  );
}
