import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { REQUEST_ADMIN_API } from '@portal/contracts';
import { QC_CHECKS, QC_DEFAULTS, qcApprovalEnabled } from '@portal/domain';
import { errorMessages, useCurrentUser, useNavigate, useNotify } from '@portal/web-kit';
import { useChangeRequestMutation } from '../../../api/requestsApi';
import { PropertyTypeSelect } from '../../../components/PropertyTypeSelect';
import { PATHS } from '../../../paths';
import { TEXT } from '../../../texts';
import { useChecklistParams } from '../../../hooks/useChecklistParams';
import { ChecklistBoxes } from '../components/ChecklistBoxes';
import { ChecklistFrame } from '../components/ChecklistFrame';
import { SurveyChangesPanel } from '../components/SurveyChangesPanel';
import { VersionChangesPanel } from '../components/VersionChangesPanel';

/**
 * requests/admin/qc-checklist (spec 02 §2.2, §4.2, §6): 7 checks, property type, buildings and price.
 * Approval (→ Dispatch) only for saviQC and only with all 7 ticked; a query needs a comment (→ Query).
 * Above the checks: the report's changes since its last submitted version (issue 13) and the buildings
 * changed since the survey before the request (issue 21).
 */
export function QcChecklistPage() {
  const { requestID, point } = useChecklistParams();
  const { user } = useCurrentUser();
  const [checks, setChecks] = useState<boolean[]>(QC_CHECKS.map(() => false));
  const [propertyType, setPropertyType] = useState<string>(QC_DEFAULTS.propertyType);
  const [buildings, setBuildings] = useState(String(QC_DEFAULTS.numberOfBuildings));
  const [price, setPrice] = useState('');
  const [comment, setComment] = useState('');
  const [commentMissing, setCommentMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [change, { isLoading }] = useChangeRequestMutation();
  const navigate = useNavigate();
  const notify = useNotify();
  const numberOfBuildings = buildings.trim() === '' ? null : Number(buildings);
  const unitPrice = price.trim() === '' ? null : Number(price);
  const saviQC = Boolean(user?.saviQC);
  const canApprove = qcApprovalEnabled({ checks, numberOfBuildings, price: unitPrice, saviQC });
  const done = (message: string) => {
    notify({ message, severity: 'success' });
    navigate(PATHS.admin);
  };
  return (
    <ChecklistFrame title={TEXT.qcTitle} requestID={requestID}>
      {(record) => (
        <Stack spacing={2}>
          <VersionChangesPanel requestID={requestID} />
          <Divider />
          <SurveyChangesPanel point={record.coordinates ?? point} loggedAt={record.created} />
          <Divider />
          <ChecklistBoxes label="QC checks" checks={QC_CHECKS} values={checks} onChange={setChecks} />
          <Stack direction="row" spacing={2}>
            <PropertyTypeSelect value={propertyType} onChange={setPropertyType} sx={{ minWidth: 200 }} />
            <TextField
              label="Number of buildings"
              type="number"
              value={buildings}
              onChange={(event) => setBuildings(event.target.value)}
            />
            <TextField
              label="Unit price (R)"
              type="number"
              value={price}
              onChange={(event) => setPrice(event.target.value)}
            />
          </Stack>
          {!saviQC && <Alert severity="info">{TEXT.qcOnlySaviQc}</Alert>}
          {error && <Alert severity="error">{error}</Alert>}
          <Stack direction="row" spacing={1}>
            <Button
              variant="contained"
              disabled={!canApprove || isLoading}
              onClick={async () => {
                const result = await change({
                  url: REQUEST_ADMIN_API.qcChecklist,
                  id: requestID,
                  body: {
                    _id: requestID,
                    status: 'Dispatch',
                    propertyType,
                    numberOfBuildings,
                    price: unitPrice,
                    checks,
                  },
                });
                if ('error' in result) return setError(errorMessages(result.error).join(' '));
                done(`${record.gripReference} approved: Dispatch.`);
              }}
            >
              {TEXT.qcApprove}
            </Button>
          </Stack>
          <Divider />
          <TextField
            multiline
            minRows={2}
            label="Query comment"
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            error={commentMissing && comment.trim() === ''}
            helperText={commentMissing && comment.trim() === '' ? TEXT.commentRequired : ' '}
          />
          <Stack direction="row" spacing={1}>
            <Button
              variant="outlined"
              color="warning"
              disabled={isLoading}
              onClick={async () => {
                setCommentMissing(true);
                if (comment.trim() === '') return;
                const result = await change({
                  url: REQUEST_ADMIN_API.query,
                  id: requestID,
                  body: { _id: requestID, status: 'Query', comment: comment.trim() },
                });
                if ('error' in result) return setError(errorMessages(result.error).join(' '));
                done(`${record.gripReference} queried.`);
              }}
            >
              {TEXT.qcQuery}
            </Button>
            <Button onClick={() => navigate(PATHS.admin)}>Back to the console</Button>
          </Stack>
        </Stack>
      )}
    </ChecklistFrame>
  );
}
