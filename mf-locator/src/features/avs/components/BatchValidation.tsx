import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ValidationResult } from '@portal/contracts';
import { errorMessages } from '@portal/web-kit';
import { useValidateBatchMutation } from '../../../api/locatorApi';
import { PREVIEW_ROWS } from '../../../config';
import { AVS_TEXT, CSV_TEXT } from '../../../texts';
import { runBatch, summarise, type BatchOutcome, type BatchProgress } from '../batch';
import { CsvFileError, readAddressFile, resultsCsv, resultsFileName, type AddressTable } from '../csv';
import { percent, VerdictChip } from './ValidationResultView';

interface LoadedFile {
  name: string;
  table: AddressTable;
}

/** Offers text as a file download. */
function download(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // After the click has been handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A CSV file of addresses validated in chunks: the file read and checked, a progress bar (rows done of
 * the total), a summary by verdict, the first rows, and the results as a CSV download. A chunk that keeps
 * failing stops the run with every result so far kept; Retry goes on from that chunk.
 */
export function BatchValidation() {
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [progress, setProgress] = useState<BatchProgress | null>(null);
  const [outcome, setOutcome] = useState<BatchOutcome | null>(null);
  const [running, setRunning] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  const [validateBatch] = useValidateBatchMutation();

  useEffect(() => () => abortRef.current?.abort(), []);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    // The same file may be chosen again after a fix.
    event.target.value = '';
    if (!chosen) return;
    abortRef.current?.abort();
    abortRef.current = null;
    setRunning(false);
    setFile(null);
    setProgress(null);
    setOutcome(null);
    setFileError(null);
    setReading(true);
    try {
      setFile({ name: chosen.name, table: await readAddressFile(chosen) });
    } catch (error) {
      setFileError(error instanceof CsvFileError ? error.message : CSV_TEXT.unreadable(String(error)));
    } finally {
      setReading(false);
    }
  };

  const start = useCallback(
    async (previous?: readonly (ValidationResult | undefined)[]) => {
      if (!file) return;
      const controller = new AbortController();
      abortRef.current = controller;
      setRunning(true);
      setOutcome(null);
      const { table } = file;
      const result = await runBatch({
        addresses: table.rows.map((row) => row[table.addressColumn]),
        previous,
        validate: async (addresses) => {
          try {
            return (await validateBatch({ addresses }).unwrap()).results;
          } catch (error) {
            throw new Error(errorMessages(error).join(' '));
          }
        },
        // A run given up for another file reports nothing more.
        onProgress: (next) => {
          if (abortRef.current === controller) setProgress(next);
        },
        signal: controller.signal,
      });
      if (abortRef.current === controller) {
        setRunning(false);
        setOutcome(result);
      }
    },
    [file, validateBatch],
  );

  const total = file?.table.rows.length ?? 0;
  const done = progress?.done ?? 0;
  const counts = progress ? summarise(progress.results) : null;

  return (
    <Stack spacing={2}>
      <Typography variant="body2">{AVS_TEXT.batchHint}</Typography>
      <Box>
        <Button variant="outlined" component="label" disabled={running || reading}>
          {AVS_TEXT.chooseFile}
          <input
            hidden
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            onChange={onFile}
            data-testid="csv-file-input"
          />
        </Button>
      </Box>
      {reading && <Typography variant="body2">{AVS_TEXT.readingFile}</Typography>}
      {fileError && <Alert severity="error">{fileError}</Alert>}
      {file && (
        <>
          <Typography variant="body2" data-testid="csv-rows-read">
            {AVS_TEXT.rowsRead(total, file.name)}
          </Typography>
          <Stack direction="row" spacing={1}>
            {!running && done === 0 && (
              <Button variant="contained" onClick={() => void start()}>
                {AVS_TEXT.start}
              </Button>
            )}
            {running && (
              <Button variant="outlined" onClick={() => abortRef.current?.abort()}>
                {AVS_TEXT.stop}
              </Button>
            )}
            {!running && outcome && outcome.status !== 'done' && (
              <Button variant="contained" onClick={() => void start(progress?.results)}>
                {AVS_TEXT.retry}
              </Button>
            )}
            {!running && done > 0 && (
              <Button
                variant={outcome?.status === 'done' ? 'contained' : 'outlined'}
                onClick={() =>
                  download(resultsCsv(file.table, progress!.results), resultsFileName(file.name))
                }
              >
                {AVS_TEXT.download}
              </Button>
            )}
          </Stack>
        </>
      )}
      {file && (running || progress) && (
        <Box>
          <LinearProgress
            variant="determinate"
            value={total ? (done / total) * 100 : 0}
            aria-label={AVS_TEXT.progress(done, total)}
          />
          <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="batch-progress">
            {AVS_TEXT.progress(done, total)}
          </Typography>
        </Box>
      )}
      {outcome?.status === 'failed' && (
        <Alert severity="error">{AVS_TEXT.chunkFailed(outcome.from, outcome.to, outcome.message)}</Alert>
      )}
      {outcome?.status === 'stopped' && <Alert severity="info">{AVS_TEXT.stopped}</Alert>}
      {counts && done > 0 && (
        <Box data-testid="batch-summary">
          <Typography variant="subtitle2">{AVS_TEXT.summary}</Typography>
          <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap' }}>
            <span>
              {AVS_TEXT.verdict.valid}: <strong data-count="valid">{counts.valid}</strong>
            </span>
            <span>
              {AVS_TEXT.verdict.probable}: <strong data-count="probable">{counts.probable}</strong>
            </span>
            <span>
              {AVS_TEXT.verdict['not found']}: <strong data-count="not found">{counts['not found']}</strong>
            </span>
            <span>
              {AVS_TEXT.rowError}: <strong data-count="unreadable">{counts.unreadable}</strong>
            </span>
          </Stack>
        </Box>
      )}
      {file && progress && done > 0 && (
        <Table size="small" aria-label={AVS_TEXT.summary}>
          <TableHead>
            <TableRow>
              <TableCell>{AVS_TEXT.addressLabel}</TableCell>
              <TableCell>{AVS_TEXT.standardised}</TableCell>
              <TableCell>{AVS_TEXT.confidence}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {file.table.rows.slice(0, PREVIEW_ROWS).map((row, i) => {
              const result = progress.results[i];
              return (
                <TableRow key={i}>
                  <TableCell>{row[file.table.addressColumn]}</TableCell>
                  <TableCell>{result?.error ?? result?.formatted_address ?? ''}</TableCell>
                  <TableCell>{result ? percent(result.confidence) : ''}</TableCell>
                  <TableCell>{result && <VerdictChip verdict={result.verdict} />}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </Stack>
  );
}
