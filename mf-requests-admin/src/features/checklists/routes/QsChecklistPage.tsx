import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { REQUEST_ADMIN_API } from '@portal/contracts';
import { QS_CHECKS, qsSaveEnabled } from '@portal/domain';
import { errorMessages, useNavigate, useNotify } from '@portal/web-kit';
import { useChangeRequestMutation } from '../../../api/requestsApi';
import { PATHS, duplicateCheckHref } from '../../../paths';
import { TEXT } from '../../../texts';
import { useChecklistParams } from '../../../hooks/useChecklistParams';
import { ChecklistBoxes } from '../components/ChecklistBoxes';
import { ChecklistFrame } from '../components/ChecklistFrame';
import { SurveyChangesPanel } from '../components/SurveyChangesPanel';

/**
 * requests/admin/qs-checklist (spec 02 §2.2, §4.2): 3 checks, all required; save → Ready for QS. Above them
 * the buildings changed since the survey before the request (issue 21).
 */
export function QsChecklistPage() {
  const { requestID, point } = useChecklistParams();
  const [checks, setChecks] = useState<boolean[]>(QS_CHECKS.map(() => false));
  const [priority, setPriority] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [change, { isLoading }] = useChangeRequestMutation();
  const navigate = useNavigate();
  const notify = useNotify();
  return (
    <ChecklistFrame title={TEXT.qsTitle} requestID={requestID}>
      {(record) => (
        <Stack spacing={2}>
          <SurveyChangesPanel point={record.coordinates ?? point} loggedAt={record.created} />
          <Divider />
          <ChecklistBoxes label="QS checks" checks={QS_CHECKS} values={checks} onChange={setChecks} />
          <FormControlLabel
            control={<Switch checked={priority} onChange={(event) => setPriority(event.target.checked)} />}
            label="Priority"
          />
          {error && <Alert severity="error">{error}</Alert>}
          <Stack direction="row" spacing={1}>
            <Button
              variant="contained"
              disabled={!qsSaveEnabled(checks) || isLoading}
              onClick={async () => {
                const result = await change({
                  url: REQUEST_ADMIN_API.qsChecklist,
                  id: requestID,
                  body: { _id: requestID, status: 'Ready for QS', priority, checks },
                });
                if ('error' in result) return setError(errorMessages(result.error).join(' '));
                notify({ message: `${record.gripReference} is ready for QS.`, severity: 'success' });
                navigate(PATHS.admin);
              }}
            >
              Save
            </Button>
            <Button onClick={() => navigate(duplicateCheckHref(requestID))}>Duplicate check</Button>
            <Button onClick={() => navigate(PATHS.admin)}>Back to the console</Button>
          </Stack>
        </Stack>
      )}
    </ChecklistFrame>
  );
}
