import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { ReferenceFields } from './ReferenceFields';
import { formReferences, validateReferences } from './references';

const fields = formReferences([
  ['Policy Number', 'POLICY_NUMBER', 0, true, '^[A-Z]{2}[0-9]{6}$', 'Two letters and six digits'],
  ['Broker Name', 'BROKER_NAME', 1, false, '', ''],
]);

/** The fields with their own state, touched per key on change or blur (as /iris uses them). */
function Form({ touchedAll = false }: { touchedAll?: boolean }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const touch = (key: string) => setTouched((previous) => ({ ...previous, [key]: true }));
  return (
    <ReferenceFields
      fields={fields}
      values={values}
      errors={validateReferences(fields, values)}
      touched={touchedAll || touched}
      onChange={(key, value) => {
        setValues((previous) => ({ ...previous, [key]: value }));
        touch(key);
      }}
      onBlur={touch}
    />
  );
}

describe('ReferenceFields', () => {
  it("labels the fields, marks optional ones and asks with 'Please provide {label}'", () => {
    render(<Form />);
    const policy = screen.getByRole('textbox', { name: /^Policy Number/ });
    expect(policy.getAttribute('placeholder')).toBe('Please provide Policy Number');
    expect(policy.hasAttribute('required')).toBe(true);
    expect(screen.getByRole('textbox', { name: 'Broker Name (optional)' })).toBeTruthy();
  });

  it('shows a problem only once the field is touched, and until the value is valid', () => {
    render(<Form />);
    expect(screen.queryByText('Two letters and six digits')).toBeNull();
    const policy = screen.getByRole('textbox', { name: /^Policy Number/ });
    fireEvent.blur(policy);
    expect(screen.getByText('Two letters and six digits')).toBeTruthy();
    fireEvent.change(policy, { target: { value: 'KM12' } });
    expect(screen.getByText('Two letters and six digits')).toBeTruthy();
    fireEvent.change(policy, { target: { value: 'KM123456' } });
    expect(screen.queryByText('Two letters and six digits')).toBeNull();
  });

  it('shows every problem when touched is true', () => {
    render(<Form touchedAll />);
    expect(screen.getByText('Two letters and six digits')).toBeTruthy();
  });

  it('renders nothing for a group without references', () => {
    const { container } = render(
      <ReferenceFields fields={[]} values={{}} errors={{}} touched onChange={() => undefined} />,
    );
    expect(container.innerHTML).toBe('');
  });
});
