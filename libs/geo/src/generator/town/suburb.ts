/**
 * One suburb of a town on one cell: its kind and name, its street grid, its erven with their POIs and
 * house numbers, then its rows: the suburb and its postal code, the streets, and on every erf its parcel,
 * address(es), buildings (with their history), and its POI or estate.
 */
import { padPostalCode } from '../../text';
import { type Batch, GENERATOR_SOURCE } from '../batch';
import { multiPolygonEwkb } from '../ewkb';
import { type SuburbStyle } from '../names';
import { Random } from '../random';
import { addressWriter, numberHouses } from './addresses';
import { buildingWriter, writeHouse } from './buildings';
import { type Cell, CELL_M, type SuburbRows, type TownSite, type WriteBuilding } from './context';
import { writeEstate } from './estates';
import { type Erf } from './geometry';
import { planEstateLife } from './life';
import { type TownNames } from './naming';
import { countAddresses, layOutErven, writeErfParcel } from './parcels';
import { chooseBigPoiBlocks, placeSmallPois, writePoi } from './pois';
import { layOutStreetGrid, nameStreets, writeStreets } from './streets';
import { STYLES } from './styles';

/** What laying out a suburb needs of its town. */
export interface SuburbTown {
  site: TownSite;
  names: TownNames;
  /** The town's next erf number (a town numbers its erven through all its suburbs). */
  nextErfNumber: () => number;
}

/**
 * Lays out the town's suburb number `index` on `cell` into the batch, with erven until the town has
 * `remaining` more addresses (or the suburb is full).
 */
export function layOutSuburb(
  batch: Batch,
  town: SuburbTown,
  index: number,
  cell: Cell,
  remaining: number,
): void {
  const { site, names } = town;
  const random = Random.of(site.context.seed, 'suburb', site.id, index);
  const ring = Math.max(Math.abs(cell.x), Math.abs(cell.y)) / CELL_M;
  const style: SuburbStyle =
    index === 0
      ? 'central'
      : random.weighted<SuburbStyle>([
          ['residential', 45],
          ['suburban', ring <= 1 ? 35 : 25],
          ['township', ring <= 1 ? 10 : 30],
        ]);
  const name = names.suburbName(style, random, index);
  const parameters = STYLES[style];
  const erfDepth = random.range(...parameters.depth);
  const [minFrontage, maxFrontage] = parameters.frontage;
  const frontageMean = random.range(minFrontage, maxFrontage);
  const grid = layOutStreetGrid(random, site.frame, cell, parameters, erfDepth);
  const { lines, crossBase } = nameStreets(names, random, style, grid);

  const blockCount = grid.rows * (grid.crossU.length - 1);
  const bigPoiBlocks = chooseBigPoiBlocks(style, site.context.plan.town.population, blockCount, random);
  const erven = layOutErven(random, {
    style,
    parameters,
    grid,
    crossBase,
    erfDepth,
    minFrontage,
    frontageMean,
    bigPoiBlocks,
    remaining,
  });

  // Vacant erven (no address: reverse geocoding falls back to the nearest), then the small POIs.
  const houses = erven.filter((erf) => erf.kind === 'house');
  for (const erf of houses) if (random.chance(0.03)) erf.vacant = true;
  placeSmallPois(style, houses, random);
  numberHouses(erven, lines);

  const suburb = { batch, site, index, name, style, frame: grid.frame, lines, random };
  writeSuburb(town, suburb, erven);
}

function writeSuburb(town: SuburbTown, suburb: Omit<SuburbRows, 'streetRefs' | 'postalCode'>, erven: Erf[]) {
  const { batch, site, index, name, style, frame, random } = suburb;
  const { plan, townId } = site.context;
  const streetCode = plan.postalCodes[index % plan.postalCodes.length];
  const postalCode = padPostalCode(streetCode) as string;
  const boxCode = padPostalCode(streetCode > 1 ? streetCode - 1 : streetCode) as string;
  const addressTotal = countAddresses(erven.filter((erf) => !erf.vacant));

  const suburbRef = batch.suburbs.length;
  batch.suburbs.push([
    'suburb',
    name,
    postalCode,
    townId,
    Math.round(addressTotal * 3.3),
    site.importance * 0.8,
    frame.point(frame.w / 2, frame.h / 2),
    multiPolygonEwkb([[frame.rect(0, 0, frame.w, frame.h)]]),
    GENERATOR_SOURCE,
    `suburb:${site.id}:${index}`,
  ]);
  batch.postalCodes.push([
    postalCode,
    boxCode,
    name,
    site.name,
    plan.town.province.name,
    suburbRef,
    frame.point(frame.w / 2, frame.h / 2),
    GENERATOR_SOURCE,
    `postal:${site.id}:${index}`,
  ]);
  const rows: SuburbRows = { ...suburb, postalCode, streetRefs: writeStreets(suburb, suburbRef) };

  for (const erf of erven) {
    const erfNumber = town.nextErfNumber();
    const key = `${site.id}:${erfNumber}`;
    const parcelRef = writeErfParcel(rows, erf, erfNumber, suburbRef);
    const address = addressWriter(rows, erf, parcelRef);
    const building = buildingWriter(batch, frame, parcelRef, key);
    const erfRows = { erf, key, parcelRef, address, building };
    // The erf's history draws from its own stream: today's rows are the same whatever it holds.
    const life = Random.of(site.context.seed, 'building-life', key);
    if (erf.kind === 'estate') {
      const built = planEstateLife(life);
      const dated: WriteBuilding = (rect, kind, levels, roof, n, height) =>
        building(rect, kind, levels, roof, n, height, built);
      writeEstate(rows, { ...erfRows, building: dated }, town.names.estateName());
      continue;
    }
    if (erf.vacant) continue;
    if (erf.kind === 'poi') {
      writePoi(rows, erfRows);
      continue;
    }
    const house = writeHouse(erf, style, random, building, life);
    address(null, null, (house[0] + house[2]) / 2, (house[1] + house[3]) / 2, `address:${key}`);
  }
}
