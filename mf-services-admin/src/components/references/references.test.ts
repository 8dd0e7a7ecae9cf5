import { addReference, referenceLabelProblem, removeReference } from './references';

describe('group references (spec 03 §3, §5)', () => {
  it('makes the key from the label: non-letters become underscores, upper-cased', () => {
    expect(addReference([], '  Policy no. 2 ')).toEqual([['Policy no. 2', 'POLICY_NO___', 0, true]]);
  });

  it('refuses a blank row', () => {
    expect(referenceLabelProblem([], '   ')).toBe('Enter a label for the reference.');
    expect(addReference([], '   ')).toEqual([]);
  });

  it('refuses a label whose key is taken, or without a letter', () => {
    const entries = addReference([], 'Broker Name');
    expect(referenceLabelProblem(entries, 'broker-name')).toBe(
      'There is already a reference with the key BROKER_NAME.',
    );
    expect(addReference(entries, 'broker-name')).toEqual(entries);
    expect(referenceLabelProblem(entries, '123')).toBe('A reference label needs at least one letter.');
  });

  it('numbers new references after the existing ones', () => {
    const entries = addReference(addReference([], 'Policy Number'), 'Broker Name');
    expect(entries.map((entry) => entry[2])).toEqual([0, 1]);
  });

  it('closes the gap on removal and keeps the extra items of existing entries', () => {
    const existing = [
      ['Policy Number', 'POLICY_NUMBER', 0, true, '^[A-Z]{2}[0-9]{6}$', 'Two letters and six digits'],
      ['Broker Name', 'BROKER_NAME', 1, false, '', ''],
      ['Batch', 'BATCH', 2, false, '', '', true],
    ];
    expect(removeReference(existing, 0)).toEqual([
      ['Broker Name', 'BROKER_NAME', 0, false, '', ''],
      ['Batch', 'BATCH', 1, false, '', '', true],
    ]);
  });
});
