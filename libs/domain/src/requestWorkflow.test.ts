import { REQUEST_STATUSES } from '@portal/contracts';
import {
  ACTION_BY_STATUS,
  OVERRIDE_QUERY_COMMENT,
  QC_CHECKS,
  QS_CHECKS,
  STATUS_EDGES,
  TRANSITIONS,
  actionFor,
  ageingLevel,
  duplicateRveText,
  formatRand,
  hoursInQueue,
  qcApprovalEnabled,
  qsSaveEnabled,
  reportDownloadLink,
  reportFee,
  rowColour,
  showPrioritise,
  statusChangeAllowed,
  statusDisplay,
  transitionAllowed,
} from './requestWorkflow';

describe('spec 02 §4.1: the action of each status', () => {
  it.each([
    ['New', 'QS check'],
    ['Ready for QS', 'Start report'],
    ['In progress', 'Continue report'],
    ['Pending', 'Continue report'],
    ['QC check', 'QC check'],
    ['Query', 'Revisit report'],
    ['Dispatch', 'Download report'],
    ['Delivered', 'Download report'],
    ['Finalised', 'Dispute'],
    ['Cancelled_rejected', null],
    ['Lost', null],
  ])('%s → %s', (status, action) => {
    expect(actionFor(status)).toBe(action);
  });

  it('covers every status', () => {
    expect(Object.keys(ACTION_BY_STATUS).sort()).toEqual([...REQUEST_STATUSES].sort());
  });
});

describe('spec 02 §4.2: transitions', () => {
  it('moves each kind to its status only from its statuses', () => {
    expect(TRANSITIONS.qsChecklist.to).toBe('Ready for QS');
    expect(TRANSITIONS.qcApprove.to).toBe('Dispatch');
    expect(TRANSITIONS.submit.to).toBe('QC check');
    expect(TRANSITIONS.query.to).toBe('Query');
    expect(TRANSITIONS.dispute.to).toBe('Query');
    expect(TRANSITIONS.startReport.to).toBe('In progress');
    expect(TRANSITIONS.deliver.to).toBe('Delivered');
    for (const status of REQUEST_STATUSES) {
      expect(transitionAllowed('qsChecklist', status)).toBe(status === 'New');
      expect(transitionAllowed('qcApprove', status)).toBe(status === 'QC check');
      expect(transitionAllowed('deliver', status)).toBe(status === 'Dispatch' || status === 'Delivered');
      expect(transitionAllowed('dispute', status)).toBe(
        ['Dispatch', 'Delivered', 'Finalised'].includes(status),
      );
    }
    expect(transitionAllowed('submit', 'New')).toBe(false);
    expect(transitionAllowed('submit', 'In progress')).toBe(true);
    expect(transitionAllowed('query', 'Finalised')).toBe(false);
  });

  it('lets staff follow the edges, admins set any other status, nobody the same one', () => {
    expect(statusChangeAllowed('New', 'Ready for QS', false)).toBe(true);
    expect(statusChangeAllowed('New', 'Delivered', false)).toBe(false);
    expect(statusChangeAllowed('New', 'Delivered', true)).toBe(true);
    expect(statusChangeAllowed('Query', 'Query', true)).toBe(false);
    expect(statusChangeAllowed('New', 'Lost', true)).toBe(false);
    for (const [from, targets] of Object.entries(STATUS_EDGES))
      for (const to of targets) expect(statusChangeAllowed(from, to, false)).toBe(true);
    expect(OVERRIDE_QUERY_COMMENT).toBe('Override from Request Admin page');
  });
});

describe('spec 02 §4.3: row colours', () => {
  it.each([
    [{ priority: 'Yes', status: 'New', disputed: false }, 'red'],
    [{ priority: true, status: 'Query', disputed: true }, 'red'],
    [{ priority: 'Yes', status: 'Finalised', disputed: false }, null],
    [{ priority: 'No', status: 'Query', disputed: false }, 'orange'],
    [{ priority: 'No', status: 'Delivered', disputed: true }, 'orange'],
    [{ priority: 'No', status: 'Finalised', disputed: true }, null],
    [{ priority: 'No', status: 'New', disputed: false }, null],
  ])('%o → %s', (row, colour) => {
    expect(rowColour(row)).toBe(colour);
  });
});

describe('display rules', () => {
  it('shows the final RVE when finalised, else the preliminary one, else no RVE (spec 03)', () => {
    expect(statusDisplay({ status: 'Finalised', finalRve: 1234567.5 })).toBe(
      'Finalised (final RVE R 1 234 567.50)',
    );
    expect(statusDisplay({ status: 'Finalised' })).toBe('Finalised');
    expect(statusDisplay({ status: 'QC check', preliminaryRve: 900000 })).toBe(
      'QC check (preliminary RVE R 900 000.00)',
    );
    expect(statusDisplay({ status: 'New' })).toBe('New (no RVE)');
  });

  it('writes rand with spaces between thousands, and the duplicate popup’s RVE', () => {
    expect(formatRand(0)).toBe('R 0.00');
    expect(formatRand(999.999)).toBe('R 1 000.00');
    expect(formatRand(-1500)).toBe('-R 1 500.00');
    expect(duplicateRveText({ finalRve: 1, preliminaryRve: 2 })).toBe('Final RVE: R 1.00');
    expect(duplicateRveText({ preliminaryRve: 2 })).toBe('Preliminary RVE: R 2.00');
    expect(duplicateRveText({})).toBe('Insufficient Data');
  });

  it('prices a report at buildings × unit price, and counts whole hours in the queue', () => {
    expect(reportFee(3, 1250.5)).toBe(3751.5);
    expect(reportFee(null, 100)).toBeNull();
    expect(reportFee(0, 100)).toBe(0);
    const created = '2026-11-20T08:00:00Z';
    expect(hoursInQueue(created, null, new Date('2026-11-20T10:59:59Z'))).toBe(2);
    expect(hoursInQueue(created, '2026-11-21T08:00:00Z', new Date('2026-12-01T00:00:00Z'))).toBe(24);
    expect(hoursInQueue(created, null, new Date('2026-11-19T00:00:00Z'))).toBe(0);
  });

  it('ages a status against its target: near from 75 %, over past it', () => {
    const targets = { New: 4 };
    expect(ageingLevel('New', 2, targets)).toBe('ok');
    expect(ageingLevel('New', 3, targets)).toBe('near');
    expect(ageingLevel('New', 4, targets)).toBe('near');
    expect(ageingLevel('New', 5, targets)).toBe('over');
    expect(ageingLevel('Delivered', 500, targets)).toBeNull();
  });
});

describe('checklists and buttons (spec 02 §5, §6)', () => {
  const all = (n: number) => Array.from({ length: n }, () => true);
  it('saves the QS checklist only with its 3 checks ticked', () => {
    expect(QS_CHECKS).toHaveLength(3);
    expect(qsSaveEnabled(all(3))).toBe(true);
    expect(qsSaveEnabled([true, true, false])).toBe(false);
    expect(qsSaveEnabled(all(2))).toBe(false);
  });

  it('approves QC only for saviQC, with all 7 checks, buildings and a price of 0 or more', () => {
    const ok = { checks: all(QC_CHECKS.length), numberOfBuildings: 1, price: 0, saviQC: true };
    expect(QC_CHECKS).toHaveLength(7);
    expect(qcApprovalEnabled(ok)).toBe(true);
    expect(qcApprovalEnabled({ ...ok, saviQC: false })).toBe(false);
    expect(qcApprovalEnabled({ ...ok, checks: [...all(6), false] })).toBe(false);
    expect(qcApprovalEnabled({ ...ok, price: -0.01 })).toBe(false);
    expect(qcApprovalEnabled({ ...ok, price: null })).toBe(false);
    expect(qcApprovalEnabled({ ...ok, numberOfBuildings: undefined })).toBe(false);
    expect(qcApprovalEnabled({ ...ok, numberOfBuildings: Number.NaN })).toBe(false);
  });

  it("hides prioritise when isAdmin is '0'", () => {
    expect(showPrioritise('0')).toBe(false);
    expect(showPrioritise(false)).toBe(false);
    expect(showPrioritise('1')).toBe(true);
    expect(showPrioritise(undefined)).toBe(true);
  });

  it('downloads a report by its link kind, an unknown link only logged (spec 03 §7)', () => {
    expect(reportDownloadLink({ id: 'r1', reportPdfUrl: 'https://res.cloudinary.com/x.pdf' })).toEqual({
      kind: 'external',
      url: 'https://res.cloudinary.com/x.pdf',
    });
    expect(reportDownloadLink({ id: 'r1', reportPdfUrl: '/reports/savi/r1.pdf' })).toEqual({
      kind: 'savi',
      url: '/api/v1.0/reportbuilder/savi/r1/download',
    });
    expect(reportDownloadLink({ id: 'r1', reportPdfUrl: '/pdfReports/9.pdf', reportId: '9' })).toEqual({
      kind: 'pdfReports',
      url: '/api/v1.0/iris/9/pdf/download/',
    });
    expect(reportDownloadLink({ id: 'r1', reportPdfUrl: 'ftp://elsewhere' })).toBeNull();
    expect(reportDownloadLink({ id: 'r1', reportPdfUrl: null })).toBeNull();
  });
});
