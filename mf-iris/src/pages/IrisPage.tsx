import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { REQUEST_MODES, type RequestForm } from '@portal/contracts';
import { useAppDispatch, useAppSelector } from '@portal/web-kit';
import {
  AlertDialog,
  formatGps,
  LocatorMap,
  ReferenceFields,
  referenceMap,
  SearchLayout,
  SearchPanel,
  useAlerts,
  useLocatorSearch,
  useMyReferences,
  usePlaceDetails,
  validateReferences,
} from '@portal/web-kit/locator';
import { irisApi } from '../api/irisApi';
import { TEXT } from '../texts';
import { ImageryStep } from '../features/imagery/components/ImageryStep';
import { PdfProgress } from '../features/pdf/components/PdfProgress';
import { ReportView } from '../features/report/components/ReportView';
import { reportClosed, selectOpenReport } from '../state/reportSlice';
import { useOrderReport } from '../features/order/useOrderReport';

const asMode = (option: string | null): RequestForm['mode'] =>
  option && (REQUEST_MODES as readonly string[]).includes(option) ? (option as RequestForm['mode']) : null;

/**
 * The remote's one screen puts its features together (order, report, imagery, pdf), so it lives outside
 * features/: a feature imports no other feature.
 *
 * /iris (spec 03 "IRiS request and report screen"): the locator's search and map to pick the property,
 * 'Order risk report', then the report with its imagery step and PDF. Closing the report — or leaving the
 * page with it open — deletes the server's images (imagery/clean) and clears the report's data from the
 * store (spec 03 §4 step 6).
 */
export function IrisPage() {
  const dispatch = useAppDispatch();
  const report = useAppSelector(selectOpenReport);
  const alerts = useAlerts();
  const search = useLocatorSearch(alerts.alert);
  const selected = search.state.selected;
  const details = usePlaceDetails(selected, search.state.option);
  const pointKey = selected ? `${selected.point.lat},${selected.point.lng}` : null;
  const { order, ordering, error, clearError } = useOrderReport(pointKey);
  // The group's references (spec 01 §3, §5, as /savi's form): required ones must be valid to order.
  const references = useMyReferences({ skip: !selected });
  const [values, setValues] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const errors = useMemo(() => validateReferences(references.fields, values), [references.fields, values]);
  const referencesReady = !!references.data && !references.isError;
  const referencesValid = referencesReady && Object.keys(errors).length === 0;
  const touch = useCallback((key: string) => setTouched((previous) => ({ ...previous, [key]: true })), []);

  const close = useCallback(
    (reportId: string) => {
      void dispatch(irisApi.endpoints.cleanImagery.initiate(reportId));
      dispatch(reportClosed());
    },
    [dispatch],
  );
  // Leaving the page with a report open closes it too. (A ref: StrictMode's trial unmount happens before
  // any report is open, so it closes nothing.)
  const openReport = useRef(report);
  openReport.current = report;
  useEffect(
    () => () => {
      if (openReport.current) close(openReport.current._id);
    },
    [close],
  );
  useEffect(clearError, [pointKey, clearError]);

  if (report) {
    return (
      <Box sx={{ p: { xs: 1, md: 3 }, maxWidth: 1200, mx: 'auto' }}>
        <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
          {TEXT.title}
        </Typography>
        <ReportView
          report={report}
          steps={
            <>
              <ImageryStep
                reportId={report._id}
                requestId={report.requestId}
                point={report.data.coordinates}
              />
              <PdfProgress reportId={report._id} requestId={report.requestId} />
            </>
          }
          onClose={() => close(report._id)}
        />
      </Box>
    );
  }

  const address = details.reverse?.address?.formatted_address ?? selected?.item?.formatted_address ?? null;
  return (
    <SearchLayout
      title={TEXT.title}
      panel={
        <>
          {!selected && (
            <Typography variant="body2" color="text.secondary">
              {TEXT.intro}
            </Typography>
          )}
          <SearchPanel search={search} />
          {selected && (
            <Stack spacing={1} component="section" aria-label={TEXT.chosen}>
              <Typography variant="subtitle2" component="h2">
                {TEXT.chosen}
              </Typography>
              {address && <Typography data-testid="iris-address">{address}</Typography>}
              <Typography variant="body2" color="text.secondary">
                {formatGps(selected.point)}
              </Typography>
              {references.isLoading && <CircularProgress size={24} aria-label={TEXT.referencesLoading} />}
              {references.isError && <Alert severity="error">{TEXT.referencesFailed}</Alert>}
              {referencesReady && references.fields.length > 0 && (
                <Stack spacing={1} component="section" aria-label={TEXT.references} sx={{ pt: 1 }}>
                  <Typography variant="subtitle2" component="h2">
                    {TEXT.references}
                  </Typography>
                  <ReferenceFields
                    fields={references.fields}
                    values={values}
                    errors={errors}
                    touched={touched}
                    onChange={(key, value) => {
                      setValues((previous) => ({ ...previous, [key]: value }));
                      touch(key);
                    }}
                    onBlur={touch}
                  />
                </Stack>
              )}
              {referencesReady && !referencesValid && (
                <Typography variant="body2" color="text.secondary" data-testid="iris-references-needed">
                  {TEXT.referencesNeeded}
                </Typography>
              )}
              <Button
                variant="contained"
                disabled={ordering || !referencesValid}
                onClick={() =>
                  void order({
                    point: selected.point,
                    mode: asMode(search.state.option),
                    searchedFor: search.state.searchedFor || search.state.query,
                    address,
                    item: selected.item,
                    references: referenceMap(references.fields, values),
                  })
                }
              >
                {ordering ? TEXT.ordering : TEXT.order}
              </Button>
              {error && (
                <Alert severity="error" role="alert">
                  {error}
                </Alert>
              )}
            </Stack>
          )}
        </>
      }
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <LocatorMap search={search} details={details} />
      </Box>
      <AlertDialog message={alerts.current} onClose={alerts.dismiss} />
    </SearchLayout>
  );
}
