import type { GridColDef } from '@mui/x-data-grid';
import { referencesText, type RequestRow } from '@portal/contracts';
import { TEXT } from '../texts';

/**
 * The client references of a row as people read them, "Label: value, Label: value" (issue 22): the service
 * labels them with the group's names; a row that still carries the stored JSON (an older answer) is read
 * here, under its keys, so a cell never shows raw JSON.
 */
export const clientReferenceText = (row: Pick<RequestRow, 'clientReference'>) =>
  referencesText(row.clientReference);

/** The "Client reference" column of the console and of the user's own list. */
export const clientReferenceColumn = (width = 220): GridColDef<RequestRow> => ({
  field: 'clientReference',
  headerName: TEXT.clientReference,
  width,
  valueGetter: (_value: unknown, row: RequestRow) => clientReferenceText(row),
});
