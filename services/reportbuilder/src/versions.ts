import type { DataSource } from 'typeorm';
import type {
  ReportSectionsBody,
  ReportTotalsAnswer,
  ReportVersion,
  VersionChanges,
} from '@portal/contracts';
import type { ReportSections } from '@portal/domain';
import { addressOf, extraFieldOf, sectionsOf, totalsOf, type ReportRow, type ReportState } from './store';

/**
 * The versions kept at each submission (issue 13 "Beyond the spec"; written by the migration's trigger when
 * a request moves to 'QC check'), each with what changed since the one before, and what changed in the
 * report since the last submission (what QC looks at when a queried report comes back).
 */

/** A kept version: the report's own columns as they were, and the submission's. */
interface VersionRow extends Pick<
  ReportRow,
  'sections' | 'details' | 'extra_include' | 'extra_description' | 'extra_value' | 'comments' | 'note'
> {
  number: number;
  report_version: number;
  totals: ReportTotalsAnswer | null;
  submitted_by: string | null;
  submitted_by_name: string | null;
  submitted_at: Date;
}

/** What a comparison looks at besides the sections. */
interface Comparable {
  sections: ReportSections;
  fields: Record<string, unknown>;
  grandTotal: number | null;
}

/** JSON with the keys of every object sorted (jsonb does not keep the order they were written in). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

const nameOf = (sections: ReportSections, id: string) => sections[id]?.name.trim() || id;

export function compare(before: Comparable | null, after: Comparable): VersionChanges {
  const old = before?.sections ?? {};
  const now = after.sections;
  return {
    sectionsAdded: Object.keys(now)
      .filter((id) => !(id in old))
      .map((id) => nameOf(now, id)),
    sectionsRemoved: Object.keys(old)
      .filter((id) => !(id in now))
      .map((id) => nameOf(old, id)),
    sectionsChanged: Object.keys(now)
      .filter((id) => id in old && canonical(old[id]) !== canonical(now[id]))
      .map((id) => nameOf(now, id)),
    detailsChanged: Object.keys(after.fields).filter(
      (key) => before !== null && canonical(before.fields[key]) !== canonical(after.fields[key]),
    ),
    grandTotalBefore: before?.grandTotal ?? null,
    grandTotalAfter: after.grandTotal,
  };
}

function fields(input: {
  location: string;
  suburbTownCity: string;
  comments: string;
  note: string;
  extraField: { include: boolean; description: string; value: number };
}) {
  return {
    location: input.location,
    suburbTownCity: input.suburbTownCity,
    comments: input.comments,
    note: input.note,
    extraField: input.extraField,
  };
}

function comparableOfRow(row: VersionRow, state: ReportState): Comparable {
  const address = addressOf({ ...state, row: state.row && { ...state.row, details: row.details } });
  return {
    sections: Object.fromEntries(row.sections),
    fields: fields({
      location: row.details.location ?? address.location,
      suburbTownCity: row.details.suburbTownCity ?? address.suburbTownCity,
      comments: row.comments,
      note: row.note,
      extraField: {
        include: row.extra_include,
        description: row.extra_description ?? state.request.group?.extraField ?? '',
        value: Number(row.extra_value),
      },
    }),
    grandTotal: row.totals?.grandTotal ?? null,
  };
}

function comparableOfState(state: ReportState): Comparable {
  const address = addressOf(state);
  return {
    sections: sectionsOf(state),
    fields: fields({
      location: address.location,
      suburbTownCity: address.suburbTownCity,
      comments: state.row?.comments ?? '',
      note: state.row?.note ?? '',
      extraField: extraFieldOf(state),
    }),
    grandTotal: totalsOf(state).grandTotal,
  };
}

export async function reportVersions(
  ds: DataSource,
  state: ReportState,
): Promise<{ versions: ReportVersion[]; sinceLast: VersionChanges | null }> {
  const rows = (await ds.query(
    `SELECT number, report_version, sections, details, extra_include, extra_description,
            extra_value::text AS extra_value, comments, note, totals, submitted_by, submitted_by_name, submitted_at
       FROM reportbuilder.report_versions WHERE request_id = $1 ORDER BY number`,
    [state.request.id],
  )) as VersionRow[];
  const versions: ReportVersion[] = [];
  let before: Comparable | null = null;
  for (const row of rows) {
    const comparable = comparableOfRow(row, state);
    versions.push({
      number: row.number,
      reportVersion: row.report_version,
      submittedAt: row.submitted_at.toISOString(),
      submittedBy: row.submitted_by_name
        ? { id: row.submitted_by, name: row.submitted_by_name }
        : row.submitted_by
          ? { id: row.submitted_by, name: '' }
          : null,
      sections: comparable.sections as ReportSectionsBody,
      totals: row.totals,
      changes: compare(before, comparable),
    });
    before = comparable;
  }
  return {
    versions: versions.reverse(),
    sinceLast: before ? compare(before, comparableOfState(state)) : null,
  };
}
