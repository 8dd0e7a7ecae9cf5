import { formatRand } from '@portal/domain';
import type { HistoryLine } from './changes';

const textOrNull = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** New values of the fee fields; a field left out is not changed. */
export interface FeeChange {
  propertyType?: string;
  numberOfBuildings?: number;
  unitPrice?: number;
}

/** History lines of a fee change (property type, buildings, unit price), only for what changes. */
export function feeHistoryLines(
  row: { property_type: string | null; number_of_buildings: number | null; unit_price: number | null },
  next: FeeChange,
): HistoryLine[] {
  const lines: HistoryLine[] = [];
  if (next.propertyType !== undefined && next.propertyType !== row.property_type)
    lines.push({ field: 'propertyType', from: row.property_type, to: next.propertyType });
  if (next.numberOfBuildings !== undefined && next.numberOfBuildings !== row.number_of_buildings)
    lines.push({
      field: 'numberOfBuildings',
      from: textOrNull(row.number_of_buildings),
      to: String(next.numberOfBuildings),
    });
  if (next.unitPrice !== undefined && next.unitPrice !== row.unit_price)
    lines.push({
      field: 'unitPrice',
      from: row.unit_price === null ? null : formatRand(row.unit_price),
      to: formatRand(next.unitPrice),
    });
  return lines;
}
