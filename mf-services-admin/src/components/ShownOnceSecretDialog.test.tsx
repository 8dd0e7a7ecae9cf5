import { act, fireEvent, render, screen } from '@testing-library/react';
import { SHOWN_ONCE_TEXT as T } from '../texts';
import { ShownOnceSecretDialog } from './ShownOnceSecretDialog';

const SECRET = `ppk_${'A'.repeat(43)}`;

function show(onClose = jest.fn()) {
  render(
    <ShownOnceSecretDialog
      title="Your new API key"
      warning="Copy the key now."
      label="Policy system"
      secret={SECRET}
      onClose={onClose}
    />,
  );
  return onClose;
}

describe('ShownOnceSecretDialog', () => {
  it('names the dialog by its title and shows the warning and the secret, read-only, in a labelled field', () => {
    show();
    expect(screen.getByRole('dialog', { name: 'Your new API key' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Copy the key now.');
    const field = screen.getByRole('textbox', { name: 'Policy system' }) as HTMLInputElement;
    expect(field.value).toBe(SECRET);
    expect(field.readOnly).toBe(true);
  });

  it('selects the secret on focus, so the keyboard copies it too', () => {
    show();
    const field = screen.getByRole('textbox', { name: 'Policy system' }) as HTMLInputElement;
    fireEvent.focus(field);
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, SECRET.length]);
  });

  it('copies the secret to the clipboard and says so; Done closes', async () => {
    const writeText = jest.fn(async () => undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    const onClose = show();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: T.copy })));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(screen.getByRole('button', { name: T.copied })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: T.done }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
