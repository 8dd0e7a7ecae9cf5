import type { ServiceConfig, ServiceIdentifier } from '@portal/contracts';
import type { GroupEntity } from './entities/group.entity';
import type { RateEntity } from './entities/rate.entity';
import type { ServiceEntity } from './entities/service.entity';
import type { UserEntity } from './entities/user.entity';

/** The password of every demo account. Demo data only: never seed a production database. */
export const DEMO_PASSWORD = 'Portal-demo-2026';

/** Spec 01 §9 map defaults (South Africa), the same for every service. */
const SOUTH_AFRICA: ServiceConfig = { country: 'ZA', centre: { lat: -28.96642, lng: 24.181142 }, zoom: 6 };

type ServiceSeed = Pick<
  ServiceEntity,
  'identifier' | 'name' | 'description' | 'url' | 'image' | 'active' | 'config'
>;

const service = (identifier: ServiceIdentifier, name: string, description: string): ServiceSeed => ({
  identifier,
  name,
  description,
  url: `/${identifier}`,
  image: `/assets/services/${identifier}.svg`,
  active: true,
  config: SOUTH_AFRICA,
});

export const SEED_SERVICES: ServiceSeed[] = [
  service(
    'avs',
    'AVS',
    'Address Validation Service: finds, validates and standardises South African street addresses and the land parcels they belong to.',
  ),
  service(
    'iris',
    'IRiS',
    'Property imagery and risk reports: aerial photographs with crime, flood, fire-service, elevation and soil risk for any address.',
  ),
  service(
    'savi',
    'SAVi',
    'Remote valuation: replacement value estimates and building-size calculations from aerial imagery, without a site visit.',
  ),
  service(
    'spatialkey',
    'SpatialKey',
    'Mapping service: explore properties, parcels and portfolio exposure on an interactive map of South Africa.',
  ),
];

type GroupSeed = Pick<
  GroupEntity,
  | 'name'
  | 'code'
  | 'active'
  | 'includeVAT'
  | 'includeProfessionalFee'
  | 'professionalFeePercentage'
  | 'doubleVolumePercent'
  | 'extraField'
  | 'reportNameFormat'
  | 'references'
  | 'claimsReferences'
> & {
  services: ServiceIdentifier[];
  /** The e-mail of the group's admin (the spec's group `admin`); DEMO_ADMIN_EMAIL when absent. */
  adminEmail?: string;
};

/**
 * Reference entries in the spec 01 §3 list format: [label, key, position, required, regex, message, hidden?].
 * The last KMI entry is hidden (7 items ending in true): the request form must drop it.
 */
export const SEED_GROUPS: GroupSeed[] = [
  {
    name: 'Karoo Mutual Insurance',
    code: 'KMI',
    active: true,
    includeVAT: true,
    includeProfessionalFee: true,
    professionalFeePercentage: 12.5,
    doubleVolumePercent: 15,
    extraField: 'Betterments',
    reportNameFormat: '',
    references: [
      [
        'Policy Number',
        'POLICY_NUMBER',
        0,
        true,
        '^[A-Z]{2}[0-9]{6}$',
        'Policy number must be two letters followed by six digits, e.g. KM123456',
      ],
      ['Broker Name', 'BROKER_NAME', 1, false, '', ''],
      ['Underwriting Batch', 'UNDERWRITING_BATCH', 2, false, '', '', true],
    ],
    claimsReferences: [
      ['Claim Number', 'CLAIM_NUMBER', 0, true, '^CLM[0-9]{6}$', 'Claim number must look like CLM123456'],
      ['Assessor Name', 'ASSESSOR_NAME', 1, false, '', ''],
    ],
    services: ['savi', 'iris', 'avs', 'spatialkey'],
    // A group's admin who is not a portal admin (role 'groupAdmin', issue 22): KMI's own API keys,
    // webhooks and usage, from the header's Integration entry.
    adminEmail: 'claims@portal.test',
  },
  {
    name: 'Highveld Valuers',
    code: 'HVV',
    active: true,
    includeVAT: true,
    includeProfessionalFee: false,
    professionalFeePercentage: 10,
    doubleVolumePercent: 0,
    extraField: 'Betterments',
    reportNameFormat: '',
    references: [
      [
        'Valuation Reference',
        'VALUATION_REFERENCE',
        0,
        true,
        '^HV-[0-9]{5}$',
        'Valuation reference must look like HV-12345',
      ],
      ['Client Name', 'CLIENT_NAME', 1, false, '', ''],
    ],
    claimsReferences: [],
    services: ['savi', 'iris'],
  },
  {
    name: 'Portal Operations',
    code: 'OPS',
    active: true,
    includeVAT: false,
    includeProfessionalFee: false,
    professionalFeePercentage: 0,
    doubleVolumePercent: 0,
    extraField: 'Betterments',
    reportNameFormat: '',
    references: [['Job Number', 'JOB_NUMBER', 0, false, '', '']],
    claimsReferences: [],
    services: ['avs', 'iris', 'savi', 'spatialkey'],
  },
];

type UserFlags = Pick<
  UserEntity,
  | 'isAdmin'
  | 'saviOperator'
  | 'saviQC'
  | 'ratesEditor'
  | 'claimsUser'
  | 'includeIds'
  | 'includeAll'
  | 'active'
>;

export type UserSeed = Pick<UserEntity, 'name' | 'email' | 'avsServiceUrl'> &
  UserFlags & { groupCode: string; role: string };

const NO_FLAGS: UserFlags = {
  isAdmin: false,
  saviOperator: false,
  saviQC: false,
  ratesEditor: false,
  claimsUser: false,
  includeIds: false,
  includeAll: false,
  active: true,
};

const user = (
  name: string,
  email: string,
  groupCode: string,
  role: string,
  flags: Partial<UserFlags> = {},
): UserSeed => ({ name, email, groupCode, role, avsServiceUrl: '', ...NO_FLAGS, ...flags });

/** One account per role. Portal staff are in OPS, the customer's people in KMI. */
export const SEED_USERS: UserSeed[] = [
  user('Thandiwe Nkosi', 'admin@portal.test', 'OPS', 'administrator', { isAdmin: true, includeIds: true }),
  user('Pieter van der Merwe', 'operator@portal.test', 'OPS', 'SAVi operator', { saviOperator: true }),
  // QC staff open the console (admin or saviOperator, spec 02 §2.2) and approve (saviQC, §6): both flags.
  user('Ayesha Patel', 'qc@portal.test', 'OPS', 'SAVi quality control (QC approval; Requests Admin)', {
    saviOperator: true,
    saviQC: true,
  }),
  user('Sipho Dlamini', 'rates@portal.test', 'KMI', 'rates editor', { ratesEditor: true }),
  user(
    'Lerato Mokoena',
    'claims@portal.test',
    'KMI',
    "claims user (claims references); KMI's group admin (Integration menu)",
    { claimsUser: true },
  ),
  user('Johan Botha', 'user@portal.test', 'KMI', 'plain user'),
  user('Nomvula Khumalo', 'inactive@portal.test', 'KMI', 'inactive account (login refused)', {
    active: false,
  }),
];

export type RateSeed = Pick<
  RateEntity,
  | 'report'
  | 'category'
  | 'type'
  | 'class'
  | 'quantity'
  | 'increase'
  | 'standard'
  | 'inbetween'
  | 'expensive'
  | 'slope'
  | 'fee'
  | 'vat'
>;

const rate = (
  category: string,
  type: string,
  rateClass: string,
  quantity: string,
  [standard, inbetween, expensive]: [number, number, number],
  slope = true,
): RateSeed => ({
  report: 'savi',
  category,
  type,
  class: rateClass,
  quantity,
  increase: 6.5,
  standard,
  inbetween,
  expensive,
  slope,
  fee: true,
  vat: true,
});

/**
 * The demo rate table of KMI: replacement costs in rand (excluding fees and VAT) in the range South African
 * quantity surveyors quoted for 2025, per m² of floor area for buildings, per metre for walls and fences
 * and per item ('no') for pools and boreholes. Slope only applies to what is built on the ground's fall.
 */
export const SEED_RATE_GROUP_CODE = 'KMI';
export const SEED_RATES: RateSeed[] = [
  rate('Buildings', 'Dwelling', 'Single storey', 'm²', [9_500, 13_500, 19_000]),
  rate('Buildings', 'Dwelling', 'Double storey', 'm²', [10_500, 15_000, 21_500]),
  rate('Buildings', 'Dwelling', 'Thatch roof', 'm²', [11_000, 15_500, 22_000]),
  rate('Buildings', 'Townhouse', 'Sectional title unit', 'm²', [9_000, 12_500, 17_500]),
  rate('Outbuildings', 'Garage', 'Attached', 'm²', [5_200, 6_800, 9_000]),
  rate('Outbuildings', 'Garage', 'Free-standing', 'm²', [4_800, 6_300, 8_500]),
  rate('Outbuildings', 'Carport', 'Shade net', 'm²', [650, 850, 1_100]),
  rate('Outbuildings', 'Carport', 'Steel and sheeting', 'm²', [1_400, 1_900, 2_600]),
  rate('Outbuildings', 'Domestic quarters', 'Brick and plaster', 'm²', [7_000, 9_500, 12_500]),
  rate('Outbuildings', 'Lapa', 'Thatch', 'm²', [3_800, 5_200, 7_500]),
  rate('Improvements', 'Boundary wall', 'Precast concrete', 'm', [650, 900, 1_200]),
  rate('Improvements', 'Boundary wall', 'Brick and plaster', 'm', [1_800, 2_400, 3_200]),
  rate('Improvements', 'Palisade fence', 'Steel, 1.8 m', 'm', [1_100, 1_500, 2_000]),
  rate('Improvements', 'Electric fence', 'Wall-top, 6 strand', 'm', [350, 480, 650], false),
  rate('Improvements', 'Swimming pool', 'Fibreglass', 'no', [95_000, 130_000, 180_000]),
  rate('Improvements', 'Swimming pool', 'Concrete (gunite)', 'no', [140_000, 200_000, 300_000]),
  rate('Improvements', 'Paving', 'Concrete interlocking', 'm²', [420, 580, 800], false),
  rate('Improvements', 'Paving', 'Clay brick', 'm²', [520, 720, 980], false),
  rate('Improvements', 'Borehole', 'Equipped, submersible pump', 'no', [85_000, 120_000, 160_000], false),
];

/** The e-mail of the demo administrator, who is also the admin of every demo group without an `adminEmail`. */
export const DEMO_ADMIN_EMAIL = 'admin@portal.test';

/** For the start script to print: who to log in as (all with DEMO_PASSWORD). */
export const DEMO_ACCOUNTS: ReadonlyArray<{ email: string; role: string }> = SEED_USERS.map(
  ({ email, role }) => ({
    email,
    role,
  }),
);
