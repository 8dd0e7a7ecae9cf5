import { createSlice, injectSlice, type PayloadAction } from '@portal/web-kit';
import type { IrisReport } from '@portal/contracts';

export interface IrisReportState {
  /** The open report (its data: crime, elevation, water, fire, soil), or null. */
  report: IrisReport | null;
}

const initialState: IrisReportState = { report: null };

const slice = createSlice({
  name: 'irisReport',
  initialState,
  reducers: {
    reportOpened(state, action: PayloadAction<IrisReport>) {
      state.report = action.payload;
    },
    /** Spec 03 §4 step 6: closing the report clears its data (the crime data with it). */
    reportClosed(state) {
      state.report = null;
    },
  },
  selectors: {
    selectOpenReport: (state) => state.report,
  },
});

export const irisReport = injectSlice(slice);
export const { reportOpened, reportClosed } = slice.actions;
export const { selectOpenReport } = irisReport.selectors;

declare module '@portal/web-kit' {
  interface LazyLoadedSlices {
    irisReport: IrisReportState;
  }
}
