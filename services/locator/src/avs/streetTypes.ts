/** Street types as normaliseForSearch writes them out: the word that ends a street's name. */
export const STREET_TYPES = new Set([
  'street',
  'road',
  'avenue',
  'drive',
  'crescent',
  'lane',
  'place',
  'close',
  'court',
  'boulevard',
  'highway',
  'square',
  'terrace',
  'way',
  'circle',
]);
