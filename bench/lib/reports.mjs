// A report's parts as the report builder's screens save them (spec 02 §3; libs/contracts reportBuilder.ts):
// what the benches that write reports (reportbuilder.mjs, screens.mjs) put in them.

/** An improvement: paving, in square metres. */
export const reportImprovement = (name, numberOfUnits, marker) => ({
  name,
  marker,
  category: 'Paving',
  type: 'Brick',
  class: 'B-s',
  rate: 385.4,
  unit: 'm²',
  numberOfUnits,
});

/**
 * A brick-and-plaster house of class A-s at R 8 500 a square metre, of the given floors (`[size, doubleVolume,
 * location]`), in the section's group 'Main'.
 */
export const reportHouse = ({ name, marker, floors, slopePercentage = null, improvements = [] }) => ({
  name,
  marker,
  category: 'buildings',
  type: 'House',
  class: 'A-s',
  constructionType: 'Brick and Plaster',
  rate: 8500,
  unit: 'm²',
  numberOfUnits: 0,
  floors: floors.map(([size, doubleVolume, location]) => ({ size, doubleVolume, location })),
  group: 'Main',
  slope: slopePercentage !== null,
  slopePercentage,
  comment: '',
  improvements,
});
