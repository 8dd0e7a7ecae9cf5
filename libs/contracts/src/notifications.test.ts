import { notificationLink, notificationTitle, statusNotificationKind } from './notifications';

describe('statusNotificationKind (issue 24)', () => {
  const change = (from: string, to: string, extra: { cantLocate?: boolean; hasReport?: boolean } = {}) =>
    statusNotificationKind({ from, to, cantLocate: false, hasReport: true, ...extra });

  it('tells of a query or dispute (into Query), whatever the request had', () => {
    expect(change('QC check', 'Query')).toBe('request.queried');
    expect(change('Delivered', 'Query', { hasReport: false })).toBe('request.queried');
  });

  it('tells the report is ready into Delivered, or into Finalised not from Delivered, only with a report', () => {
    expect(change('Dispatch', 'Delivered')).toBe('report.ready');
    expect(change('New', 'Finalised')).toBe('report.ready');
    expect(change('Delivered', 'Finalised')).toBeNull();
    expect(change('Dispatch', 'Delivered', { hasReport: false })).toBeNull();
    expect(change('QC check', 'Dispatch')).toBeNull();
  });

  it("tells a can't-locate request was located when it is finalised, and nothing of other moves", () => {
    expect(change('New', 'Finalised', { cantLocate: true, hasReport: false })).toBe('request.located');
    expect(change('New', 'Ready for QS')).toBeNull();
    expect(change('Query', 'Query')).toBeNull();
  });

  it('words each kind and links the requester to their list, staff to the console', () => {
    expect(notificationTitle('request.queried', 'GRP-2611-000001', { disputed: true })).toBe(
      'GRP-2611-000001 was disputed and is back in Query.',
    );
    expect(notificationTitle('request.late', 'GRP-2611-000001', { status: 'New', targetHours: 4 })).toBe(
      'GRP-2611-000001 is late: over 4 hours in queue at New.',
    );
    expect(notificationLink('report.ready', 'GRP-2611-000001')).toBe(
      '/requests?grip_reference=GRP-2611-000001',
    );
    expect(notificationLink('request.assigned', 'GRP-2611-000001')).toBe(
      '/requests/admin?grip_reference=GRP-2611-000001',
    );
  });
});
