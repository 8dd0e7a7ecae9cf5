import { useMemo, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  REFERENCE_TEXT,
  REQUEST_CREATED,
  REQUEST_SUBTYPE,
  referenceFields,
  referenceLabel,
  referenceProblem,
  type RequestForm,
} from '@portal/contracts';
import { errorMessages, newIdempotencyKey } from '@portal/web-kit';
import { useCreateRequestMutation, useMyReferencesQuery } from '@portal/web-kit/locator';
import { MAX_ADDRESS_LENGTH, MAX_COMMENTS_LENGTH } from '../../../config';
import { AVS_TEXT, CANT_LOCATE_ERRORS } from '../../../texts';

interface Failure {
  message: string;
  details: string[];
}

/**
 * The can't-locate request (spec 03 "Can't-locate address screen"): the address as the user has it,
 * comments and the group's references (as the request tool asks for them), logged as a request of type
 * AVS, subtype Can't Locate. Success shows the request's GRiP reference.
 */
export function CantLocateForm({ initialAddress = '' }: { initialAddress?: string }) {
  const [address, setAddress] = useState(initialAddress);
  const [comments, setComments] = useState('');
  const [references, setReferences] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [gripReference, setGripReference] = useState<string | null>(null);
  const { data: myReferences } = useMyReferencesQuery();
  const fields = useMemo(() => referenceFields(myReferences?.references), [myReferences]);
  const [create, { isLoading }] = useCreateRequestMutation();

  const addressProblem = address.trim() ? null : AVS_TEXT.required(AVS_TEXT.cantLocateAddress);
  const commentsProblem = comments.trim() ? null : AVS_TEXT.required(AVS_TEXT.comments);
  const problems = fields.map((field) => referenceProblem(field, references[field.key]));
  const hasProblems = !!addressProblem || !!commentsProblem || problems.some(Boolean);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (hasProblems || isLoading) return;
    setFailure(null);
    const reference = Object.fromEntries(
      fields.map((field) => [field.key, (references[field.key] ?? '').trim()] as const).filter(([, v]) => v),
    );
    const form: RequestForm = {
      requestType: 'AVS',
      requestSubType: REQUEST_SUBTYPE.cantLocate,
      cantlocate: true,
      query: address.trim(),
      Searched_For: address.trim(),
      additional: comments.trim(),
      reference,
    };
    try {
      const answer = await create({ form, idempotencyKey }).unwrap();
      if (answer.reply !== REQUEST_CREATED) {
        console.error('[avs] the request service answered', answer.reply);
        setFailure({ message: CANT_LOCATE_ERRORS.registration, details: [CANT_LOCATE_ERRORS.requestNull] });
        return;
      }
      if (!answer.gripReference) {
        console.error('[avs] the request was created without a GRiP reference', answer.location);
        setFailure({ message: CANT_LOCATE_ERRORS.registration, details: [CANT_LOCATE_ERRORS.nullResult] });
        return;
      }
      setGripReference(answer.gripReference);
    } catch (error) {
      // A 400 says what to correct; anything else is the spec's registration failure. The key is kept:
      // trying again cannot log the request twice.
      const status = (error as { status?: number }).status;
      setFailure({
        message: CANT_LOCATE_ERRORS.registration,
        details: status === 400 ? errorMessages(error) : [],
      });
    }
  };

  const reset = () => {
    setAddress('');
    setComments('');
    setReferences({});
    setTouched(false);
    setFailure(null);
    setGripReference(null);
    setIdempotencyKey(newIdempotencyKey());
  };

  if (gripReference) {
    return (
      <Stack spacing={2} data-testid="cant-locate-logged">
        <Alert severity="success">{AVS_TEXT.logged}</Alert>
        <Typography>
          {AVS_TEXT.gripReference}: <strong data-testid="grip-reference">{gripReference}</strong>
        </Typography>
        <div>
          <Button variant="outlined" onClick={reset}>
            {AVS_TEXT.another}
          </Button>
        </div>
      </Stack>
    );
  }

  const shown = (problem: string | null) => (touched ? problem : null);
  return (
    <Stack spacing={2} component="form" onSubmit={onSubmit} noValidate sx={{ maxWidth: 640 }}>
      <Typography variant="body2">{AVS_TEXT.cantLocateIntro}</Typography>
      <TextField
        label={AVS_TEXT.cantLocateAddress}
        value={address}
        onChange={(event) => setAddress(event.target.value)}
        required
        error={!!shown(addressProblem)}
        helperText={shown(addressProblem) ?? ' '}
        slotProps={{ htmlInput: { maxLength: MAX_ADDRESS_LENGTH } }}
      />
      <TextField
        label={AVS_TEXT.comments}
        placeholder={AVS_TEXT.commentsPlaceholder}
        value={comments}
        onChange={(event) => setComments(event.target.value)}
        required
        multiline
        minRows={3}
        error={!!shown(commentsProblem)}
        helperText={shown(commentsProblem) ?? ' '}
        slotProps={{ htmlInput: { maxLength: MAX_COMMENTS_LENGTH } }}
      />
      {fields.map((field, i) => (
        <TextField
          key={field.key}
          label={referenceLabel(field)}
          placeholder={REFERENCE_TEXT.placeholder(field.label)}
          value={references[field.key] ?? ''}
          onChange={(event) => setReferences((values) => ({ ...values, [field.key]: event.target.value }))}
          required={field.required}
          error={!!shown(problems[i])}
          helperText={shown(problems[i]) ?? ' '}
        />
      ))}
      {failure && (
        <Alert severity="error" data-testid="cant-locate-error">
          {failure.message}
          {failure.details.map((detail) => (
            <div key={detail}>{detail}</div>
          ))}
        </Alert>
      )}
      <div>
        <Button type="submit" variant="contained" disabled={isLoading || (touched && hasProblems)}>
          {isLoading ? AVS_TEXT.submitting : AVS_TEXT.submit}
        </Button>
      </div>
    </Stack>
  );
}
