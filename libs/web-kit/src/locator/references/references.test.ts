import {
  fieldLabel,
  formReferences,
  referenceMap,
  requestReferences,
  validateReferences,
} from './references';

const KMI = [
  [
    'Policy Number',
    'POLICY_NUMBER',
    0,
    true,
    '^[A-Z]{2}[0-9]{6}$',
    'Policy number must be two letters followed by six digits, e.g. KM123456',
  ],
  ['Broker Name', 'BROKER_NAME', 1, false, '', ''],
  ['Underwriting Batch', 'UNDERWRITING_BATCH', 2, false, '', '', true],
];

describe('formReferences', () => {
  it('reads label, key, required, regex and message, and drops hidden 7-item entries', () => {
    const fields = formReferences(KMI);
    expect(fields.map((field) => field.key)).toEqual(['POLICY_NUMBER', 'BROKER_NAME']);
    expect(fields[0]).toMatchObject({ label: 'Policy Number', required: true });
    expect(fields[0].pattern).toBe('^[A-Z]{2}[0-9]{6}$');
    expect(fields[1]).toMatchObject({ required: false, pattern: null, message: null });
  });

  it('keeps a 7-item entry whose last item is not true, and the short 4-item form', () => {
    const fields = formReferences([
      ['Job', 'JOB', 0, true, '', '', false],
      ['Ref', 'REF', 1, true],
    ]);
    expect(fields.map((field) => [field.key, field.required])).toEqual([
      ['JOB', true],
      ['REF', true],
    ]);
  });

  it('skips malformed entries and does not hold an invalid regex against the user', () => {
    const fields = formReferences([null, [1, 'X'], ['Bad', 'BAD', 0, true, '([', 'msg']]);
    expect(fields.map((field) => field.key)).toEqual(['BAD']);
    expect(validateReferences(fields, { BAD: 'anything' })).toEqual({});
    expect(validateReferences(fields, {})).toEqual({ BAD: 'msg' });
  });

  it("suffixes optional labels with ' (optional)'", () => {
    const [policy, broker] = formReferences(KMI);
    expect(fieldLabel(policy)).toBe('Policy Number');
    expect(fieldLabel(broker)).toBe('Broker Name (optional)');
  });
});

describe('validateReferences', () => {
  const fields = formReferences(KMI);

  it('fails an empty required reference with its own message', () => {
    expect(validateReferences(fields, {})).toEqual({
      POLICY_NUMBER: 'Policy number must be two letters followed by six digits, e.g. KM123456',
    });
  });

  it('fails a required reference that does not match its regex', () => {
    expect(validateReferences(fields, { POLICY_NUMBER: 'KM12' }).POLICY_NUMBER).toMatch(/two letters/);
  });

  it('passes a matching required value and leaves optional ones unchecked', () => {
    expect(validateReferences(fields, { POLICY_NUMBER: ' KM123456 ', BROKER_NAME: '' })).toEqual({});
    expect(validateReferences(fields, { POLICY_NUMBER: 'KM123456', BROKER_NAME: '!!' })).toEqual({});
  });

  it("uses '{label} may not be empty.' when the entry has no message", () => {
    const [field] = formReferences([['Job Number', 'JOB', 0, true, '', '']]);
    expect(validateReferences([field], { JOB: '  ' })).toEqual({ JOB: 'Job Number may not be empty.' });
  });
});

describe('referenceMap and requestReferences', () => {
  const fields = formReferences(KMI);

  it("takes the form's fields only, trimmed, and leaves out the empty ones", () => {
    expect(
      referenceMap(fields, { POLICY_NUMBER: ' KM123456 ', BROKER_NAME: '  ', UNDERWRITING_BATCH: 'B1' }),
    ).toEqual({ POLICY_NUMBER: 'KM123456' });
    expect(referenceMap([], { POLICY_NUMBER: 'KM123456' })).toEqual({});
  });

  it('gives the map and its JSON text, as PUT /api/v1.0/request/ takes them', () => {
    expect(requestReferences({ POLICY_NUMBER: ' KM123456 ', BROKER_NAME: '' })).toEqual({
      reference: { POLICY_NUMBER: 'KM123456' },
      referenceString: '{"POLICY_NUMBER":"KM123456"}',
    });
    expect(requestReferences({})).toEqual({ reference: {}, referenceString: '{}' });
  });
});
