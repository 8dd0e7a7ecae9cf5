import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { referenceKey } from '@portal/domain';
import {
  addReference,
  referenceKeyOf,
  referenceLabel,
  referenceLabelProblem,
  removeReference,
  type ReferenceEntry,
} from './references';
import { AddIcon, DeleteIcon } from '../../layout/icons';

interface ReferencesEditorProps {
  /** What the list is called: 'Reference' or 'Claims reference'. */
  noun: string;
  value: readonly ReferenceEntry[];
  onChange: (entries: ReferenceEntry[]) => void;
  disabled?: boolean;
}

/**
 * A group's references (or claims references): one row per reference with its key, made from the label
 * (spec 03 §3), and a field to add one. A blank label cannot be added (spec 03 §5).
 */
export function ReferencesEditor({ noun, value, onChange, disabled = false }: ReferencesEditorProps) {
  const [label, setLabel] = useState('');
  const [tried, setTried] = useState(false);
  const problem = referenceLabelProblem(value, label);
  const trimmed = label.trim();

  const add = () => {
    setTried(true);
    if (problem) return;
    onChange(addReference(value, label));
    setLabel('');
    setTried(false);
  };

  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          label={`New ${noun.toLowerCase()} label`}
          size="small"
          margin="none"
          sx={{ flexGrow: 1 }}
          value={label}
          disabled={disabled}
          onChange={(event) => setLabel(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
          error={tried && problem !== null}
          helperText={
            tried && problem
              ? problem
              : trimmed
                ? `Key: ${referenceKey(trimmed)}`
                : 'The key is made from the label.'
          }
        />
        <Button
          variant="outlined"
          startIcon={<AddIcon />}
          onClick={add}
          disabled={disabled || trimmed === ''}
          sx={{ flexShrink: 0, height: 40 }}
        >
          Add {noun.toLowerCase()}
        </Button>
      </Stack>
      {value.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
          No {noun.toLowerCase()}s yet.
        </Typography>
      ) : (
        <Box component="ol" aria-label={`${noun}s`} sx={{ listStyle: 'none', p: 0, m: 0, mt: 1.5 }}>
          {value.map((entry, index) => (
            <Box
              component="li"
              key={`${referenceKeyOf(entry)}-${index}`}
              sx={{
                display: 'flex',
                alignItems: 'center',
                gap: 1.5,
                px: 1.5,
                py: 0.75,
                border: 1,
                borderColor: 'divider',
                borderRadius: 1,
                mb: 1,
              }}
            >
              <Typography variant="body2" color="text.secondary" sx={{ width: 24, textAlign: 'right' }}>
                {index + 1}.
              </Typography>
              <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
                  {referenceLabel(entry)}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                  {referenceKeyOf(entry)}
                </Typography>
              </Box>
              <IconButton
                aria-label={`Remove ${noun.toLowerCase()} ${referenceLabel(entry)}`}
                size="small"
                disabled={disabled}
                onClick={() => onChange(removeReference(value, index))}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
