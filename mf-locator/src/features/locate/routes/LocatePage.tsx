import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import {
  AlertDialog,
  LocatorMap,
  SearchLayout,
  SearchPanel,
  useAlerts,
  useLocatorSearch,
  usePlaceDetails,
} from '@portal/web-kit/locator';
import { LOCATE_TEXT } from '../../../texts';
import { PlaceSummary } from '../components/PlaceSummary';

/**
 * Locate (/locate): the request tool's search and map without a request — find, select, and see the
 * parcel and the addresses on it; a click on the map in marker mode (or a dragged marker) looks the point
 * up (reverse geocode). Nothing is logged.
 */
export function LocatePage() {
  const alerts = useAlerts();
  const search = useLocatorSearch(alerts.alert);
  const selected = search.state.selected;
  const details = usePlaceDetails(selected, search.state.option);
  return (
    <SearchLayout
      title={LOCATE_TEXT.title}
      panel={
        <>
          {!selected && (
            <Typography variant="body2" color="text.secondary">
              {LOCATE_TEXT.intro}
            </Typography>
          )}
          <SearchPanel search={search} />
          {selected && <PlaceSummary place={selected} details={details} />}
        </>
      }
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <LocatorMap search={search} details={details} />
      </Box>
      <AlertDialog message={alerts.current} onClose={alerts.dismiss} />
    </SearchLayout>
  );
}
