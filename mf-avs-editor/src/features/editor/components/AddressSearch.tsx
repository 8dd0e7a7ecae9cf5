import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { LatLng, SearchResultItem } from '@portal/contracts';
import { parseGps, useLazySearchQuery } from '@portal/web-kit/locator';
import { TEXT } from '../../../texts';

/**
 * Finding a point: an address search (the locator's) with its results, and GPS co-ordinates typed in.
 * The search text is the page's (a can't-locate request puts what the user searched for there).
 */
export function AddressSearch({
  searchText,
  onSearchTextChange,
  onGo,
}: {
  searchText: string;
  onSearchTextChange: (text: string) => void;
  /** Jumps to a found or typed point. */
  onGo: (point: LatLng) => void;
}) {
  const [gps, setGps] = useState('');
  const [gpsError, setGpsError] = useState(false);
  const [runSearch, found] = useLazySearchQuery();

  const goToGps = () => {
    const parsed = parseGps(gps);
    setGpsError(!parsed);
    if (parsed) onGo(parsed);
  };

  return (
    <>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ mb: 1 }}>
        <Box
          component="form"
          sx={{ display: 'flex', gap: 1, flex: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            if (searchText.trim()) void runSearch({ query: searchText.trim() });
          }}
        >
          <TextField
            size="small"
            fullWidth
            label={TEXT.search}
            value={searchText}
            onChange={(event) => onSearchTextChange(event.target.value)}
          />
          <Button type="submit" variant="outlined">
            {TEXT.searchButton}
          </Button>
        </Box>
        <Box
          component="form"
          sx={{ display: 'flex', gap: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            goToGps();
          }}
        >
          <TextField
            size="small"
            label={TEXT.gps}
            placeholder={TEXT.gpsHint}
            value={gps}
            onChange={(event) => setGps(event.target.value)}
            error={gpsError}
            helperText={gpsError ? TEXT.gpsInvalid : undefined}
          />
          <Button type="submit" variant="outlined">
            {TEXT.go}
          </Button>
        </Box>
      </Stack>
      {found.isFetching && <LinearProgress aria-label="Searching" />}
      {found.currentData && (
        <List dense aria-label="Search results" sx={{ maxHeight: 180, overflow: 'auto', mb: 1 }}>
          {found.currentData.result.length === 0 && (
            <ListItem>
              <Typography variant="body2" color="text.secondary">
                {TEXT.noResults}
              </Typography>
            </ListItem>
          )}
          {found.currentData.result.map((item: SearchResultItem) => (
            <ListItem key={`${item.type}:${item.id}`} disablePadding>
              <ListItemButton onClick={() => onGo(item.location)}>
                <ListItemText primary={item.formatted_address} secondary={item.type} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </>
  );
}
