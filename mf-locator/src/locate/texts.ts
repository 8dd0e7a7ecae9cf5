/** Texts of the locate screen (/locate): ours; the search and popup texts are the search components'. */
export const LOCATE_TEXT = {
  title: 'Locate',
  intro: 'Find a property by address, co-ordinates, farm, point of interest or a click on the map.',
  place: 'Selected location',
  address: 'Address',
  parcel: 'Parcel',
  noParcel: 'No parcel at this point.',
  addressesOnParcel: 'Addresses on this parcel',
  area: 'Area',
  gps: 'GPS',
  loading: 'Retrieving Information . . .',
  failed: 'The details of this location could not be retrieved.',
} as const;
