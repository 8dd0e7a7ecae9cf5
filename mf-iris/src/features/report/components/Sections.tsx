import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  crimeSeriesSvg,
  elevationProfileSvg,
  financialYearLabel,
  formatNumber,
  formatDistance,
  formatMetres,
} from '@portal/charts';
import type {
  CrimeData,
  CrimePoint,
  ElevationData,
  FireServicesData,
  SoilData,
  WaterBody,
  WaterBodyData,
} from '@portal/contracts';
import { TEXT } from '../../../texts';
import { RiskClassLabel } from './RiskClassLabel';
import { Section } from './Section';
import { SvgChart } from './SvgChart';

export function ElevationSection({ data }: { data: ElevationData }) {
  return (
    <Section title={TEXT.elevation} source={data.source} unavailable={data.unavailable}>
      <Typography>
        {TEXT.elevationOfPoint}: <strong>{formatMetres(data.ele, TEXT.notKnown)}</strong>
      </Typography>
      <SvgChart
        label={TEXT.profileNs}
        svg={elevationProfileSvg(data.elevation_ns, data.ele, {
          title: TEXT.profileNs,
          negativeLabel: 'S',
          positiveLabel: 'N',
        })}
      />
      <SvgChart
        label={TEXT.profileEw}
        svg={elevationProfileSvg(data.elevation_ew, data.ele, {
          title: TEXT.profileEw,
          negativeLabel: 'W',
          positiveLabel: 'E',
        })}
      />
    </Section>
  );
}

/** The series' latest financial year, or null. */
const latestPoint = (points: readonly CrimePoint[]) =>
  [...points].sort((a, b) => b.yearTo - a.yearTo)[0] ?? null;

/** The latest year of each series in figures (as the PDF's table): reported count and rate. */
function CrimeLatest({ series }: { series: ReadonlyArray<readonly [string, string, CrimePoint[]]> }) {
  return (
    <Table size="small" aria-label={TEXT.crimeLatest}>
      <TableHead>
        <TableRow>
          <TableCell>{TEXT.crimeSeries}</TableCell>
          <TableCell>{TEXT.crimeYear}</TableCell>
          <TableCell align="right">{TEXT.crimeCount}</TableCell>
          <TableCell align="right">{TEXT.crimeRate}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {series.map(([key, title, points]) => {
          const latest = latestPoint(points);
          return (
            <TableRow key={key} data-testid={`crime-latest-${key}`}>
              <TableCell>{title}</TableCell>
              <TableCell>{latest ? financialYearLabel(latest.yearTo) : '—'}</TableCell>
              <TableCell align="right" data-testid="crime-count">
                {latest ? formatNumber(latest.count) : '—'}
              </TableCell>
              <TableCell align="right">
                {latest?.rate === null || !latest ? '—' : formatNumber(latest.rate, 1)}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

export function CrimeSection({ data }: { data: CrimeData }) {
  const series = [
    ['burglaryBusiness', TEXT.burglaryBusiness, data.burglaryBusiness],
    ['burglaryResidential', TEXT.burglaryResidential, data.burglaryResidential],
    ['maliciousDamage', TEXT.maliciousDamage, data.maliciousDamage],
  ] as const;
  return (
    <Section title={TEXT.crime} source={data.source} unavailable={data.unavailable}>
      <Typography data-testid="precinct">
        {TEXT.precinct}: <strong>{data.precinctName ?? TEXT.notKnown}</strong>
        {data.match &&
          ` (${data.match === 'precinct' ? TEXT.matchPrecinct : TEXT.matchNearest}${
            data.stationDistance !== null ? TEXT.stationDistance(formatDistance(data.stationDistance)) : ''
          })`}
      </Typography>
      <CrimeLatest series={series} />
      <Typography variant="body2" color="text.secondary">
        {TEXT.crimeRates(data.unit)}
      </Typography>
      {series.map(([, title, points]) => (
        <SvgChart key={title} label={title} svg={crimeSeriesSvg(points, { title, unit: data.unit })} />
      ))}
    </Section>
  );
}

function WaterTable({ title, bodies }: { title: string; bodies: WaterBody[] }) {
  return (
    <Stack spacing={0.5}>
      <Typography variant="subtitle2" component="h3">
        {title}
      </Typography>
      {bodies.length === 0 ? (
        <Typography variant="body2">{TEXT.noneInRange}</Typography>
      ) : (
        <Table size="small" aria-label={title}>
          <TableHead>
            <TableRow>
              <TableCell>{TEXT.name}</TableCell>
              <TableCell align="right">{TEXT.distance}</TableCell>
              <TableCell align="right">{TEXT.altitude}</TableCell>
              <TableCell>{TEXT.altitudeClass}</TableCell>
              <TableCell>{TEXT.distanceClass}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {bodies.map((body, index) => (
              <TableRow key={`${body.name}-${index}`}>
                <TableCell>{body.name}</TableCell>
                <TableCell align="right">{formatDistance(body.distance)}</TableCell>
                <TableCell align="right">{formatMetres(body.altitude, TEXT.notKnown)}</TableCell>
                <TableCell>
                  <RiskClassLabel value={body.altitudeClass} text={body.altitudeClass ?? TEXT.notKnown} />
                </TableCell>
                <TableCell>
                  <RiskClassLabel value={body.distanceClass} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Stack>
  );
}

export function WaterSection({ data }: { data: WaterBodyData }) {
  return (
    <Section title={TEXT.water} source={data.source} unavailable={data.unavailable}>
      <Typography>
        {TEXT.waterRange(formatDistance(data.range))}. {TEXT.overall}:{' '}
        <RiskClassLabel value={data.overallClass} text={data.overallClass ?? TEXT.noneInRange} />
      </Typography>
      <WaterTable title={TEXT.lakes} bodies={data.waterBodiesInRange} />
      <WaterTable title={TEXT.rivers} bodies={data.riversInRange} />
      <WaterTable title={TEXT.coast} bodies={data.coastInRange} />
    </Section>
  );
}

export function FireSection({ data }: { data: FireServicesData }) {
  const station = data.closestFire;
  return (
    <Section title={TEXT.fire} source={data.source} unavailable={data.unavailable}>
      <Typography data-testid="fire-station">
        {station ? (
          <>
            {TEXT.closestStation}: <strong>{station.name}</strong>, {formatDistance(station.distance)}
          </>
        ) : (
          TEXT.noStation
        )}
      </Typography>
    </Section>
  );
}

export function SoilSection({ data }: { data: SoilData }) {
  const verdict =
    data.dangerous === null ? (
      <RiskClassLabel value={null} text={TEXT.soilUnknown} />
    ) : data.dangerous ? (
      <RiskClassLabel value="dangerous" text={TEXT.soilDangerous} />
    ) : (
      <RiskClassLabel value="safe" text={TEXT.soilNotDangerous} />
    );
  const score = (value: number | null) => (value === null ? TEXT.notKnown : String(value));
  return (
    <Section title={TEXT.soil} source={data.source} unavailable={data.unavailable}>
      <Typography data-testid="soil-values">
        {TEXT.s6}: <strong>{score(data.s6Value)}</strong> · {TEXT.s11}:{' '}
        <strong>{score(data.s11Value)}</strong>
      </Typography>
      <Typography data-testid="soil-verdict">{verdict}</Typography>
      {data.site && (
        <Typography variant="body2">
          {TEXT.soilSite}: {data.site.id}
          {data.site.classification ? `, ${data.site.classification}` : ''}
          {data.site.drainage ? `, ${data.site.drainage}` : ''} ({formatDistance(data.site.distance)})
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary">
        {TEXT.method}: {data.method}
      </Typography>
    </Section>
  );
}
