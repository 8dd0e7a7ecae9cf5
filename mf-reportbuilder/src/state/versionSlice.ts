import { createSlice, injectSlice, type PayloadAction } from '@portal/web-kit';

/**
 * The report's version as last seen, per request. One version covers the whole report (sections and
 * details, comments, note, extra field: services/reportbuilder README): every answer carries it, each
 * save sends it, and a save of a stale version is a 409.
 */
export interface ReportVersionState {
  versions: Record<string, number>;
}

const initialState: ReportVersionState = { versions: {} };

const slice = createSlice({
  name: 'reportBuilderVersion',
  initialState,
  reducers: {
    /** An answer of the report's `version`: kept when newer than the one seen (versions only grow). */
    versionSeen(state, action: PayloadAction<{ requestID: string; version: number }>) {
      const { requestID, version } = action.payload;
      if (!(version <= (state.versions[requestID] ?? -1))) state.versions[requestID] = version;
    },
  },
  selectors: {
    selectVersions: (state) => state.versions,
  },
});

export const reportBuilderVersion = injectSlice(slice);
export const { versionSeen } = slice.actions;
export const { selectVersions } = reportBuilderVersion.selectors;

declare module '@portal/web-kit' {
  interface LazyLoadedSlices {
    reportBuilderVersion: ReportVersionState;
  }
}
