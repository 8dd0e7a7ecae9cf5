/**
 * Times as the portal shows them: South African Standard Time (spec 03 §9: SAST, UTC+2, no daylight
 * saving), whatever the zone of the machine or browser. Every screen, PDF and message formats a time
 * through one of these, so the same instant reads the same everywhere. Each takes a Date, an ISO string
 * or epoch milliseconds; an empty value gives '' and a string that is no time is shown as it came.
 */

/** The IANA zone of South Africa. */
export const SA_TIME_ZONE = 'Africa/Johannesburg';

/** Spec 03 §9: the time display offset, SAST (UTC+2, no daylight saving). */
export const SAST_OFFSET_MINUTES = 120;

export type TimeValue = Date | string | number;

const pad = (n: number) => String(n).padStart(2, '0');

function toDate(time: TimeValue | null | undefined): Date | undefined {
  if (time === null || time === undefined || time === '') return undefined;
  const date = time instanceof Date ? time : new Date(time);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * A formatter of `options` in SAST, made once, on first use (Intl formatters are costly to build, cheap to
 * use: building the module's seven when it loaded took ~35 ms of every page's start, most never used).
 */
function saFormat(locale: string, options: Intl.DateTimeFormatOptions) {
  let format: Intl.DateTimeFormat | undefined;
  return (time: TimeValue | null | undefined): string => {
    const date = toDate(time);
    if (date) {
      format ??= new Intl.DateTimeFormat(locale, { timeZone: SA_TIME_ZONE, ...options });
      return format.format(date);
    }
    return typeof time === 'string' ? time : '';
  };
}

/** Spec 03 §9: 'YYYY-MM-DD HH:mm SAST'; throws a RangeError for a value that is no time. */
export function formatSast(time: TimeValue): string {
  const utc = toDate(time);
  if (!utc) throw new RangeError(`Not a time: ${String(time)}`);
  const t = new Date(utc.getTime() + SAST_OFFSET_MINUTES * 60_000);
  return (
    `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ` +
    `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())} SAST`
  );
}

/** A date and time for lists and details: '25 Nov 2026, 08:20' (medium date, short time). */
export const formatSaDateTime = saFormat('en-ZA', { dateStyle: 'medium', timeStyle: 'short' });

/** A compact numeric date and time, 24-hour: '2026/11/25, 08:20' (map popups). */
export const formatSaNumericDateTime = saFormat('en-ZA', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** The time of day: '08:20' (until when a parcel is held). */
export const formatSaTime = saFormat('en-ZA', { hour: '2-digit', minute: '2-digit' });

/** The day, in South Africa's short form: '2026/11/25'. */
export const formatSaDate = saFormat('en-ZA', {});

/** The day as ISO 8601, 'YYYY-MM-DD' (file names, SQL day boundaries). */
export const formatSaIsoDate = saFormat('en-CA', {});

/** The day written out: '25 November 2026' (a report's date). */
export const formatSaLongDate = saFormat('en-ZA', { day: 'numeric', month: 'long', year: 'numeric' });
