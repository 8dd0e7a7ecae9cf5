import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import { TIMING } from '@portal/domain';

export type NotificationSeverity = 'success' | 'info' | 'warning' | 'error';

export interface PortalNotification {
  id: string;
  message: string;
  severity: NotificationSeverity;
  /** How long the snackbar stays, in milliseconds. */
  durationMs: number;
}

/** The spec's display times (spec 01 §9, spec 03 §9), by purpose. */
export const NOTIFY_DURATION = {
  general: TIMING.generalMessageMs,
  formWarning: TIMING.formWarningMs,
  saved: TIMING.savedBannerMs,
  notSaved: TIMING.notSavedNoticeMs,
} as const;

export interface NotifyRequest {
  message: string;
  severity?: NotificationSeverity;
  durationMs?: number;
}

/** A queue of snackbar messages; NotificationHost shows the oldest one at a time. */
export const notificationsSlice = createSlice({
  name: 'notifications',
  initialState: { queue: [] as PortalNotification[] },
  reducers: {
    notify: {
      reducer(state, action: PayloadAction<PortalNotification>) {
        state.queue.push(action.payload);
      },
      prepare({ message, severity = 'info', durationMs = NOTIFY_DURATION.general }: NotifyRequest) {
        return { payload: { id: nanoid(), message, severity, durationMs } };
      },
    },
    dismissed(state, action: PayloadAction<string>) {
      state.queue = state.queue.filter((n) => n.id !== action.payload);
    },
  },
  selectors: {
    selectCurrentNotification: (state) => state.queue[0],
  },
});

export const { notify, dismissed } = notificationsSlice.actions;
export const { selectCurrentNotification } = notificationsSlice.selectors;
