import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ReferenceFields, validateReferences, type FormReference } from '@portal/web-kit/locator';
import { PICTURE_TOOLS_TEXT, SAVI_TEXT } from '../../../texts';
import type { SaviRequestForm } from '../requestForm';

export interface RequestFormProps {
  fields: FormReference[];
  values: Record<string, string>;
  comments: string;
  onChange: (key: string, value: string) => void;
  onCommentsChange: (value: string) => void;
  /** The request as it would be sent, for the review step. */
  preview: SaviRequestForm;
  submitting: boolean;
  onSubmit: () => void;
}

/** The two-step request form (spec 01 §2): 'General Info', then 'Request Confirmation'. */
export function RequestForm(props: RequestFormProps) {
  const { fields, values, comments, onChange, onCommentsChange, preview, submitting, onSubmit } = props;
  const [step, setStep] = useState(0);
  const [touched, setTouched] = useState(false);
  const errors = useMemo(() => validateReferences(fields, values), [fields, values]);
  const hasErrors = Object.keys(errors).length > 0;

  return (
    <Stack spacing={2} component="section" aria-label="Request form">
      <Stepper activeStep={step}>
        <Step>
          <StepLabel>{SAVI_TEXT.generalInfo}</StepLabel>
        </Step>
        <Step>
          <StepLabel>{SAVI_TEXT.requestConfirmation}</StepLabel>
        </Step>
      </Stepper>
      {step === 0 ? (
        <Stack spacing={2}>
          <ReferenceFields
            fields={fields}
            values={values}
            errors={errors}
            touched={touched}
            onChange={onChange}
          />
          <TextField
            size="small"
            label={SAVI_TEXT.comments}
            value={comments}
            onChange={(event) => onCommentsChange(event.target.value)}
            multiline
            minRows={2}
          />
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Button
              variant="contained"
              onClick={() => {
                setTouched(true);
                // Spec 01 §2: Next is blocked while validation errors exist.
                if (!hasErrors) setStep(1);
              }}
            >
              {SAVI_TEXT.next}
            </Button>
          </Stack>
        </Stack>
      ) : (
        <Stack spacing={2}>
          <Review preview={preview} fields={fields} />
          <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
            <Button disabled={submitting} onClick={() => setStep(0)}>
              {SAVI_TEXT.back}
            </Button>
            <Button variant="contained" disabled={submitting || hasErrors} onClick={onSubmit}>
              {submitting ? SAVI_TEXT.submitting : SAVI_TEXT.submit}
            </Button>
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  if (!value) return null;
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2">{value}</Typography>
    </Box>
  );
}

/** The review: what will be sent. Can't Locate has no address sections (spec 01 §4). */
function Review({ preview, fields }: { preview: SaviRequestForm; fields: FormReference[] }) {
  const text = SAVI_TEXT.review;
  return (
    <Stack spacing={1} data-testid="request-review">
      <Row label={text.requestType} value={preview.requestSubType} />
      <Row label={text.searchedFor} value={preview.Searched_For} />
      {!preview.cantlocate && (
        <>
          <Row label={text.selectedAddress} value={preview.Selected_Address} />
          <Row label={text.alternativeAddresses} value={preview.Alternative_Addresses.join('; ')} />
        </>
      )}
      <Row
        label={text.coordinates}
        value={
          preview.coordinates
            ? `${preview.coordinates.lat.toFixed(6)}, ${preview.coordinates.lng.toFixed(6)}`
            : ''
        }
      />
      {fields.map((field) => (
        <Row key={field.key} label={field.label} value={preview.reference[field.key] ?? ''} />
      ))}
      <Row label={text.comments} value={preview.additional} />
      <Row
        label={text.measurements}
        value={
          preview.measurements?.length
            ? `${PICTURE_TOOLS_TEXT.measurementsLabel(preview.measurements.length)}: ${preview.measurements
                .map((measurement) => measurement.label ?? measurement.kind)
                .join('; ')}`
            : ''
        }
      />
    </Stack>
  );
}
