import { render, screen, within } from '@testing-library/react';
import type { ChangesAnswer } from '@portal/contracts';
import { buildingChange, squareFootprint } from '../testing/imagery';
import { ChangesList, changeRows } from './ChangesList';
import { changeOutlines } from './changeOutlines';

const building = buildingChange;
const square = squareFootprint;
const changes: ChangesAnswer = {
  success: true,
  from: { id: 4, capturedOn: '2019-03-14', kind: 'ortho', provider: 'Built-in' },
  to: { id: 9, capturedOn: '2026-02-03', kind: 'high_resolution', provider: 'Built-in' },
  parcelId: 'P1',
  added: [building('b3', 'pool', null, 32)],
  removed: [building('b2', 'outbuilding', 18.5, null)],
  changed: [building('b1', 'house', 120, 168.5)],
};

describe('ChangesList', () => {
  it('lists added, removed and extended buildings with their areas at both dates', () => {
    render(<ChangesList changes={changes} />);
    const list = screen.getByRole('region', { name: 'Changes between 14 March 2019 and 3 February 2026' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Added: Pool32.0 m²',
      'Removed: Outbuilding18.5 m²',
      'Extended: House120.0 m² → 168.5 m²',
    ]);
    expect(items.map((item) => item.dataset.change)).toEqual(['added', 'removed', 'changed']);
  });

  it('calls a smaller footprint reduced, and says when nothing changed or no parcel is there', () => {
    expect(changeRows({ ...changes, changed: [building('b1', 'house', 120, 90)] }).at(-1)?.title).toBe(
      'Reduced',
    );
    const { rerender } = render(
      <ChangesList changes={{ ...changes, added: [], removed: [], changed: [] }} />,
    );
    expect(screen.getByText('No building on the parcel changed between these surveys.')).toBeTruthy();
    rerender(<ChangesList changes={{ ...changes, parcelId: null, added: [], removed: [], changed: [] }} />);
    expect(screen.getByText('The point is on no parcel: no changes to list.')).toBeTruthy();
  });

  it('outlines an added building at the later date, a removed one at the earlier, a changed one at both', () => {
    const outlines = changeOutlines(changes);
    expect(outlines.map((outline) => outline.properties)).toEqual([
      { change: 'added', buildingId: 'b3' },
      { change: 'removed', buildingId: 'b2' },
      { change: 'changed', before: true, buildingId: 'b1' },
      { change: 'changed', buildingId: 'b1' },
    ]);
    expect(outlines[0].geometry).toEqual(square(0.00012));
    expect(outlines[1].geometry).toEqual(square(0.0001));
  });
});
