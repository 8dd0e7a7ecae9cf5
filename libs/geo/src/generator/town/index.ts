/**
 * Lays out one town around its real centre: suburbs on a ring of 1 km cells (the nearest cells first), each
 * a rotated rectangle with its own street grid, block sizes and erf sizes by kind of suburb (a dense town
 * centre, leafy suburbs, townships), erven along every block face with odd and even house numbers on either
 * side of a street, estates with units, schools, malls and other POIs, buildings on the erven, farms in a
 * ring outside the town, and imagery coverage over it.
 *
 * Geometry is computed in metres in a suburb's own frame (u along its long streets, v across), turned and
 * moved into the town's frame, then into degrees. Everything an erf holds is inside it by construction
 * (setbacks), erven of a block share edges but never overlap, and blocks sit inside their suburb with half
 * a road reserve to spare.
 *
 * One module per kind of thing generated: ground (the cells), naming, streets, parcels (erven), addresses,
 * buildings, pois, estates, farms, coverage; suburb puts a suburb together and townLayout a town.
 */
export { CELL_M, type CoverageState, type TownContext } from './context';
export { TownLayout } from './townLayout';
