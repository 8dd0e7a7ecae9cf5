import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';

/** A checklist's boxes (spec 02 §4.2): one per check, in order; `values[i]` is check i's tick. */
export function ChecklistBoxes({
  label,
  checks,
  values,
  onChange,
}: {
  label: string;
  checks: readonly string[];
  values: boolean[];
  onChange: (values: boolean[]) => void;
}) {
  return (
    <FormGroup role="group" aria-label={label}>
      {checks.map((check, index) => (
        <FormControlLabel
          key={check}
          control={
            <Checkbox
              checked={values[index]}
              onChange={(event) =>
                onChange(values.map((value, i) => (i === index ? event.target.checked : value)))
              }
            />
          }
          label={check}
        />
      ))}
    </FormGroup>
  );
}
