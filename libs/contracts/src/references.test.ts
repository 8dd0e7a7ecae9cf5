import { referenceFields, referencesText } from './references';

describe('referencesText (issue 22: references as people read them)', () => {
  const fields = referenceFields([
    ['Claim Number', 'CLAIM', 2, true, '', '', false],
    ['Policy Number', 'POLICY', 1, false, '', '', false],
  ]);

  it("writes 'Label: value' in the group's order, then keys the group no longer defines", () => {
    expect(referencesText({ CLAIM: 'C-1', POLICY: ' P-9 ', OLD: 'x' }, fields)).toBe(
      'Policy Number: P-9, Claim Number: C-1, OLD: x',
    );
  });

  it('reads the JSON text of an object the same way, and leaves out empty values and nested objects', () => {
    expect(referencesText('{"CLAIM":"C-1","POLICY":"","NESTED":{"a":1}}', fields)).toBe('Claim Number: C-1');
    expect(referencesText(' {"CLAIM":"C-1"} ', fields, '\n')).toBe('Claim Number: C-1');
  });

  it('shows plain text, JSON that is not an object and broken JSON as written', () => {
    expect(referencesText('KM000001', fields)).toBe('KM000001');
    expect(referencesText('  KM 1  ', fields)).toBe('KM 1');
    expect(referencesText('123', fields)).toBe('123');
    expect(referencesText('["a"]', fields)).toBe('["a"]');
    expect(referencesText('"quoted"', fields)).toBe('"quoted"');
    expect(referencesText('{not json', fields)).toBe('{not json');
  });

  it('answers an empty text for nothing', () => {
    expect(referencesText(null, fields)).toBe('');
    expect(referencesText('   ', fields)).toBe('');
    expect(referencesText({}, fields)).toBe('');
  });
});
