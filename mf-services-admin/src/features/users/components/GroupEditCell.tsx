import { GridEditSingleSelectCell, useGridApiContext, type GridRenderEditCellParams } from '@mui/x-data-grid';
import type { AdminUser } from '@portal/contracts';

/** The group cell's dropdown: choosing a group ends the edit, so the grid saves it at once. */
export function GroupEditCell(params: GridRenderEditCellParams<AdminUser, string>) {
  const apiRef = useGridApiContext();
  return (
    <GridEditSingleSelectCell
      {...params}
      onValueChange={() => apiRef.current.stopCellEditMode({ id: params.id, field: params.field })}
    />
  );
}
