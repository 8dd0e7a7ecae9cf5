import {
  formatSaDate,
  formatSaDateTime,
  formatSaIsoDate,
  formatSaLongDate,
  formatSaNumericDateTime,
  formatSaTime,
  formatSast,
} from './saTime';

// 22:30 UTC on the 21st is 00:30 SAST on the 22nd: every format must land on the South African day.
const LATE_UTC = '2026-11-21T22:30:00.000Z';

describe('South African time formats', () => {
  it('shows the South African day and time, whatever the zone of the machine', () => {
    expect(formatSaIsoDate(LATE_UTC)).toBe('2026-11-22');
    expect(formatSaDate(LATE_UTC)).toBe('2026/11/22');
    expect(formatSaLongDate(new Date(LATE_UTC))).toBe('22 November 2026');
    expect(formatSaTime(LATE_UTC)).toBe('00:30');
    expect(formatSaNumericDateTime(LATE_UTC)).toMatch(/^2026\/11\/22,? 00:30$/);
    expect(formatSaDateTime(Date.parse(LATE_UTC))).toMatch(/22 Nov 2026,? 00:30/);
    expect(formatSast(LATE_UTC)).toBe('2026-11-22 00:30 SAST');
  });

  it('gives an empty value as empty and a string that is no time as it came', () => {
    for (const format of [formatSaDate, formatSaDateTime, formatSaTime, formatSaIsoDate, formatSaLongDate]) {
      expect(format(null)).toBe('');
      expect(format(undefined)).toBe('');
      expect(format('')).toBe('');
      expect(format('nonsense')).toBe('nonsense');
      expect(format(Number.NaN)).toBe('');
    }
    expect(() => formatSast('nonsense')).toThrow(RangeError);
  });
});
