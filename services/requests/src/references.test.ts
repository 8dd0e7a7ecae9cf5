import {
  REFERENCE_TEXT,
  referenceFields,
  referenceLabel,
  referenceProblem,
  referenceProblems,
} from '@portal/contracts';

// The shared rules of the request form's references (libs/contracts requests.ts), which the form in the
// browser and this service both apply (spec 01 §3 "Group references", §5 "General Info step").
describe('reference fields', () => {
  const entries = [
    ['Broker Name', 'BROKER_NAME', 1, false, '', ''],
    ['Policy Number', 'POLICY_NUMBER', 0, true, '^[A-Z]{2}[0-9]{6}$', 'Two letters and six digits'],
    ['Underwriting Batch', 'UNDERWRITING_BATCH', 2, false, '', '', true],
    ['Job', 'JOB', 3, true],
    ['', 'BLANK', 4, true],
    'not an entry',
  ];

  it('orders by position, drops hidden 7-item entries and malformed ones', () => {
    const fields = referenceFields(entries);
    expect(fields.map((field) => field.key)).toEqual(['POLICY_NUMBER', 'BROKER_NAME', 'JOB']);
    expect(fields.map(referenceLabel)).toEqual(['Policy Number', 'Broker Name (optional)', 'Job']);
    expect(REFERENCE_TEXT.placeholder('Policy Number')).toBe('Please provide Policy Number');
    expect(referenceFields(null)).toEqual([]);
  });

  it('checks required values (empty, pattern) with their own message or the default one', () => {
    const [policy, broker, job] = referenceFields(entries);
    expect(referenceProblem(policy, 'KM123456')).toBeNull();
    expect(referenceProblem(policy, 'KM1')).toBe('Two letters and six digits');
    expect(referenceProblem(policy, '  ')).toBe('Two letters and six digits');
    expect(referenceProblem(job, undefined)).toBe('Job may not be empty.');
    expect(referenceProblem(job, 'anything')).toBeNull();
    expect(referenceProblem(broker, '')).toBeNull();
    expect(referenceProblems([policy, broker, job], { BROKER_NAME: 'x' })).toEqual([
      'Two letters and six digits',
      'Job may not be empty.',
    ]);
  });

  it('does not hold a pattern that does not compile against the user', () => {
    const [broken] = referenceFields([['Code', 'CODE', 0, true, '([a-', '']]);
    expect(referenceProblem(broken, 'abc')).toBeNull();
    expect(referenceProblem(broken, '')).toBe('Code may not be empty.');
  });
});
