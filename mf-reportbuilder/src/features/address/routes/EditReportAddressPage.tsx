import { useEffect, useState } from 'react';
import { Link, skipToken, useAppDispatch } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useAddressDetailsQuery, useSaveAddressMutation } from '../../../api/reportBuilderApi';
import { propertyOverviewHref } from '../../../paths';
import { IMPROVEMENT_AND_REPORT_TEXT, TEXT } from '../../../texts';
import { useRouteParams } from '../../../report/useRouteParams';
import { SaveBar } from '../../../components/SaveBar';
import { failureMessage, readVersion, type SaveMessage } from '../../../report/useReport';
import { useUnsavedChanges } from '../../../report/useUnsavedChanges';

const PARAMS = ['requestID'] as const;

/** The contract's limit of each field (SaveAddressBody). */
export const ADDRESS_MAX = 500;

export interface AddressInput {
  location: string;
  suburbTownCity: string;
}

/** The problems of a new address, by field (both required, at most 500 characters each). */
export function addressErrors(input: AddressInput): Partial<Record<keyof AddressInput, string>> {
  const errors: Partial<Record<keyof AddressInput, string>> = {};
  if (input.location.trim() === '') errors.location = IMPROVEMENT_AND_REPORT_TEXT.locationRequired;
  else if (input.location.trim().length > ADDRESS_MAX)
    errors.location = IMPROVEMENT_AND_REPORT_TEXT.tooLong(ADDRESS_MAX);
  if (input.suburbTownCity.trim() === '')
    errors.suburbTownCity = IMPROVEMENT_AND_REPORT_TEXT.suburbTownCityRequired;
  else if (input.suburbTownCity.trim().length > ADDRESS_MAX)
    errors.suburbTownCity = IMPROVEMENT_AND_REPORT_TEXT.tooLong(ADDRESS_MAX);
  return errors;
}

/**
 * Spec 02 §2.1 edit-report-address (?requestID): the current location and suburbTownCity (GET
 * requestReportAddressDetails) and the new ones (POST requestDetails/address, with the report's version:
 * a 409 reloads, a 400 lists its messages).
 */
export function EditReportAddressPage() {
  const { requestID } = useRouteParams(PARAMS);
  const dispatch = useAppDispatch();
  const addressQuery = useAddressDetailsQuery(requestID ?? skipToken);
  const [saveAddress] = useSaveAddressMutation();
  const [input, setInput] = useState<AddressInput | null>(null);
  const [edited, setEdited] = useState(false);
  const [tried, setTried] = useState(false);
  const [message, setMessage] = useState<SaveMessage | null>(null);

  const currentAddress = addressQuery.data;
  useEffect(() => {
    if (currentAddress && !edited)
      setInput({ location: currentAddress.location, suburbTownCity: currentAddress.suburbTownCity });
  }, [currentAddress, edited]);

  const errors = input && tried ? addressErrors(input) : {};
  const save = async (): Promise<boolean> => {
    if (!requestID || !input) return false;
    setTried(true);
    if (Object.keys(addressErrors(input)).length > 0) return false;
    try {
      await saveAddress({
        requestID,
        addressDetails: { location: input.location.trim(), suburbTownCity: input.suburbTownCity.trim() },
        version: dispatch(readVersion(requestID)),
      }).unwrap();
      setEdited(false);
      setTried(false);
      setMessage({ severity: 'success', text: IMPROVEMENT_AND_REPORT_TEXT.addressSaved });
      return true;
    } catch (error) {
      const failure = failureMessage(error, 'address');
      // A 409: the address as it is now (fetched again through the tags) replaces what was typed.
      if (failure?.severity === 'warning') setEdited(false);
      setMessage(failure);
      return false;
    }
  };
  const { prompt } = useUnsavedChanges(edited, save);

  if (!requestID) return <Alert severity="info">{TEXT.missingRequest}</Alert>;
  if (!currentAddress || !input)
    return addressQuery.isError ? null : <LinearProgress aria-label={TEXT.loading} />;
  const change = (field: keyof AddressInput, value: string) => {
    setInput((i) => (i ? { ...i, [field]: value } : i));
    setEdited(true);
  };

  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        Report address
      </Typography>
      <Typography color="text.secondary">
        <Link to={propertyOverviewHref(requestID)}>Property overview</Link>
      </Typography>
      <Box component="dl" aria-label="Current address" sx={{ my: 2 }}>
        <Typography component="dt" variant="subtitle2">
          Current location
        </Typography>
        <Typography component="dd" data-testid="current-location" sx={{ ml: 2 }}>
          {currentAddress.location || '—'}
        </Typography>
        <Typography component="dt" variant="subtitle2">
          Current suburb, town or city
        </Typography>
        <Typography component="dd" data-testid="current-suburb-town-city" sx={{ ml: 2 }}>
          {currentAddress.suburbTownCity || '—'}
        </Typography>
      </Box>
      <SaveBar dirty={edited} onSave={save} message={message} />
      <Stack spacing={2} sx={{ maxWidth: 600 }}>
        <TextField
          label="New location"
          value={input.location}
          onChange={(e) => change('location', e.target.value)}
          error={!!errors.location}
          helperText={errors.location}
        />
        <TextField
          label="New suburb, town or city"
          value={input.suburbTownCity}
          onChange={(e) => change('suburbTownCity', e.target.value)}
          error={!!errors.suburbTownCity}
          helperText={errors.suburbTownCity}
        />
      </Stack>
      {prompt}
    </Box>
  );
}
