import { act, fireEvent, screen } from '@testing-library/react';

/** Types into the field with this label (formik validates asynchronously: let it settle). */
export async function fillIn(label: string, value: string) {
  const field = await screen.findByLabelText(label);
  await act(async () => fireEvent.change(field, { target: { value } }));
}

/** Clicks the button with this name and lets the form's submission settle. */
export async function press(name: string) {
  const button = await screen.findByRole('button', { name });
  await act(async () => fireEvent.click(button));
}
