import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LatLng, Measurement } from '@portal/contracts';
import {
  emptyFloor,
  floorsForStoreys,
  measuredFloor,
  storeysFromHeight,
  type ReportFloor,
} from '@portal/domain';
import {
  MEASURE_TEXT,
  MEASUREMENT_LIST_TEXT,
  savedMeasurementByline,
  savedMeasurementText,
  useMeasurementsQuery,
} from '@portal/web-kit/imagery';
import { MEASURED_TEXT } from '../../../texts';
import { MeasurePanel } from './MeasurePanel';

export interface BuildingMeasurementsProps {
  requestID: string;
  /** The request's point (where the imagery is); null: nothing to measure on. */
  point: LatLng | null;
  floors: readonly ReportFloor[];
  /** The building's floors after a measurement was used (the page marks itself unsaved). */
  onFloors: (floors: ReportFloor[], said: string) => void;
  disabled?: boolean;
}

const nameOf = (measurement: Measurement) => measurement.label || MEASURE_TEXT.kind[measurement.kind];

/**
 * The building overview's measurements (issue 21): the request's measurements (kind and label, value and
 * unit, the survey's capture date, who and when), 'Use as floor size' on an area (onto a floor chosen from
 * a menu, or a new one) and 'Use for the number of floors' on a height (round(height / 3)), both marked as
 * measured and still editable; and measuring itself on the survey's ortho or an oblique (MeasurePanel).
 */
export function BuildingMeasurements({
  requestID,
  point,
  floors,
  onFloors,
  disabled = false,
}: BuildingMeasurementsProps) {
  const measurements = useMeasurementsQuery(requestID);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; measurement: Measurement } | null>(null);
  const [measuring, setMeasuring] = useState(false);
  const list = measurements.data?.measurements ?? [];

  const applyArea = (measurement: Measurement, index: number) => {
    setMenu(null);
    const source = {
      kind: 'measurement' as const,
      id: measurement.id,
      areaM2: measurement.value,
      surveyId: measurement.surveyId,
      capturedOn: measurement.capturedOn,
    };
    const next = index < floors.length ? [...floors] : [...floors, emptyFloor()];
    next[index] = measuredFloor(next[index]!, source);
    onFloors(next, MEASURED_TEXT.usedAsFloorSize(index + 1));
  };
  const applyHeight = (measurement: Measurement) => {
    const storeys = storeysFromHeight(measurement.value);
    onFloors(floorsForStoreys(floors, storeys), MEASURED_TEXT.usedForFloors(storeys));
  };

  return (
    <Stack component="section" aria-label={MEASURED_TEXT.measurementsTitle} spacing={1} sx={{ mt: 3 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h6" component="h2">
          {MEASURED_TEXT.measurementsTitle}
        </Typography>
        <Button
          onClick={() => setMeasuring((open) => !open)}
          disabled={!point}
          aria-expanded={measuring}
          aria-controls="measure-panel"
        >
          {measuring ? MEASURED_TEXT.closeMeasure : MEASURED_TEXT.measure}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {point ? MEASURED_TEXT.measurementsIntro : MEASURED_TEXT.noPoint}
      </Typography>
      {measurements.isError && <Alert severity="warning">{MEASUREMENT_LIST_TEXT.failed}</Alert>}
      {measurements.isSuccess && list.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {MEASUREMENT_LIST_TEXT.none}
        </Typography>
      )}
      {list.length > 0 && (
        <List dense aria-label={MEASURED_TEXT.measurementsTitle} data-testid="request-measurements">
          {list.map((measurement) => {
            const name = nameOf(measurement);
            const storeys = storeysFromHeight(measurement.value);
            return (
              <ListItem
                key={measurement.id}
                disableGutters
                data-measurement-id={measurement.id}
                secondaryAction={
                  measurement.kind === 'area' ? (
                    <Button
                      size="small"
                      disabled={disabled}
                      aria-label={MEASURED_TEXT.asFloorSizeOf(name)}
                      aria-haspopup="menu"
                      onClick={(event) => setMenu({ anchor: event.currentTarget, measurement })}
                    >
                      {MEASURED_TEXT.asFloorSize}
                    </Button>
                  ) : measurement.kind === 'height' ? (
                    <Button
                      size="small"
                      disabled={disabled}
                      aria-label={MEASURED_TEXT.forFloorsOf(name, storeys)}
                      onClick={() => applyHeight(measurement)}
                    >
                      {MEASURED_TEXT.forFloors(storeys)}
                    </Button>
                  ) : undefined
                }
              >
                <ListItemText
                  sx={{ pr: 28 }}
                  primary={`${name}: ${savedMeasurementText(measurement)}`}
                  secondary={savedMeasurementByline(measurement)}
                />
              </ListItem>
            );
          })}
        </List>
      )}
      <Menu anchorEl={menu?.anchor ?? null} open={!!menu} onClose={() => setMenu(null)}>
        {floors.map((floor, i) => (
          <MenuItem key={i} onClick={() => menu && applyArea(menu.measurement, i)}>
            {MEASURED_TEXT.floorChoice(i + 1, floor.location)}
          </MenuItem>
        ))}
        <MenuItem onClick={() => menu && applyArea(menu.measurement, floors.length)}>
          {MEASURED_TEXT.newFloor}
        </MenuItem>
      </Menu>
      {measuring && point && (
        <div id="measure-panel">
          <MeasurePanel requestID={requestID} point={point} />
        </div>
      )}
    </Stack>
  );
}
