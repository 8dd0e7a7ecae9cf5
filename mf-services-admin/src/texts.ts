import type { WebhookEvent } from '@portal/contracts';

/**
 * What the services-administration screens say. The spec's texts (spec 03 §8) are verbatim; the others
 * are ours, where the spec gives none.
 */
export const ADMIN_TEXT = {
  // Spec 03 §8, verbatim.
  failedToCreateGroup: 'Failed to create group',
  failedToUpdateGroup: 'Failed to update group',
  failedToDeleteGroup: 'Failed to delete group',
  failedToUpdateUser: 'Failed to update user',
  failedToDeleteUser: 'Failed to delete user',
  /** The spec's one text for any failed service add or remove, for users too. */
  failedToChangeService: 'Failed to add service to group',
  loadingError: 'Loading error',
  loading: 'Loading ... ',
  // Spec 03 "Users grid": the claimsUser column's header.
  claimsUserHeader: 'Santam Claims',
  // Ours.
  groupNotSaved: 'Group not saved: a group needs an admin and a code.',
  ratesSaved: 'Rates saved',
  failedToSaveRates: 'Failed to save rates',
  failedToImportRates: 'Failed to import rates',
  noGroupChosen:
    'No group chosen: open the rates editor from a group, or add ?groupID=<group id> to the address.',
} as const;

/** A secret shown this once, with its Copy button (components/ShownOnceSecretDialog, issue 22). */
export const SHOWN_ONCE_TEXT = { copy: 'Copy', copied: 'Copied', done: 'Done' } as const;

/** The API keys page (issue 22). */
export const API_KEYS_TEXT = {
  title: 'API keys',
  subtitle: (group: string) => `Keys the machines of ${group} call the portal with.`,
  notYourGroup: "You may only manage your own group's API keys.",
  noGroup: 'You are not in a group.',
  createKey: 'Create key',
  noKeys: 'This group has no API keys yet.',
  failedToLoad: 'Failed to load the API keys',
  failedToCreate: 'Failed to create the key',
  failedToRevoke: 'Failed to revoke the key',
  failedToSetLimit: 'Failed to set the rate limit',
  // The create dialog.
  name: 'Name',
  nameHelp: 'What the key is for, e.g. "Policy system".',
  nameRequired: 'Give the key a name.',
  services: 'Services',
  servicesHelp: "The services the key may use: some of the group's.",
  servicesRequired: 'Choose at least one service.',
  noServices: 'The group has no services: a key could use none.',
  scope: 'Access',
  read: 'Read-only (look-ups and reads)',
  write: 'Read-write (also create and change)',
  expires: 'Expires on',
  expiresHelp: 'Leave empty for a key that does not expire.',
  expiryPast: 'The expiry date must be in the future.',
  roles: 'Staff roles (administrators only)',
  cancel: 'Cancel',
  create: 'Create',
  // The key, once.
  newKeyTitle: 'Your new API key',
  newKeyWarning: 'Copy the key now: it will not be shown again.',
  // Revoking.
  revoke: 'Revoke',
  revokeLabel: (name: string) => `Revoke key ${name}`,
  revokeTitle: 'Revoke this API key?',
  revokeBody: (name: string, prefix: string) =>
    `The key "${name}" (${prefix}…) stops working at once. This cannot be undone.`,
  // The limit.
  rateLimit: 'Calls per minute per key',
  rateLimitDefault: (limit: number) => `${limit} (the portal's default)`,
  rateLimitHelp: "Empty: the portal's default.",
  saveLimit: 'Save limit',
  limitSaved: 'Rate limit saved',
  // The list.
  states: { active: 'Active', expired: 'Expired', revoked: 'Revoked' },
  never: 'Never',
  noExpiry: 'No expiry',
  columns: {
    name: 'Name',
    prefix: 'Key',
    services: 'Services',
    scope: 'Access',
    created: 'Created',
    expires: 'Expires',
    lastUsed: 'Last used',
    useCount: 'Calls',
    state: 'State',
    actions: 'Actions',
  },
  scopes: { read: 'Read-only', write: 'Read-write' },
  createdBy: (name: string | null, at: string) => `${at}${name ? ` by ${name}` : ''}`,
  groupAction: (group: string) => `API keys of ${group}`,
} as const;

/** The usage page (issue 22). */
export const USAGE_TEXT = {
  title: 'Usage',
  subtitle: 'What a group used per day, by its API keys and its people, and the exports for invoicing.',
  group: 'Group',
  allGroups: 'All groups',
  ownGroup: 'My group',
  month: 'Month',
  exportXlsx: 'Export .xlsx',
  exportCsv: 'Export .csv',
  loading: 'Loading usage',
  loadingFailed: 'The usage could not be read. Try again in a moment.',
  nothing: (month: string) => `Nothing was used in ${month}.`,
  session: 'People (portal sessions)',
  tableLabel: (month: string) => `Usage in ${month} per metric, service and source`,
  columns: { metric: 'Metric', service: 'Service', source: 'Source', count: 'Count' },
  sast: 'Days are South African days (SAST).',
  metrics: {
    geocode: 'Geocodes',
    search: 'Searches',
    reverse: 'Reverse look-ups',
    validation: 'Validations',
    validation_row: 'Validated rows (batches)',
    parcel_tile: 'Parcel tiles',
    imagery_picture: 'Imagery pictures',
    iris_report: 'IRiS reports',
    pdf: 'PDFs',
    savi_request: 'SAVi requests',
  },
} as const;

/** Every word of the webhooks page (issue 22). */
export const WEBHOOKS_TEXT = {
  title: 'Webhooks',
  subtitle: (group: string) => `Where the portal tells the systems of ${group} about their requests, signed.`,
  notYourGroup: "You may only manage your own group's webhooks.",
  groupAction: (group: string) => `Webhooks of ${group}`,
  noGroup: 'You are not in a group.',
  addEndpoint: 'Add endpoint',
  noEndpoints: 'No endpoints yet: add one to receive events.',
  failedToLoad: 'The webhooks could not be loaded',
  failedToSave: 'The endpoint could not be saved',
  failedToDelete: 'The endpoint could not be deleted',
  failedToRotate: 'The secret could not be rotated',
  failedToTest: 'The test event could not be sent',
  failedToRedeliver: 'The delivery could not be sent again',
  testSent: 'Test event queued: it appears in the deliveries.',
  redelivered: 'Delivery queued again.',
  enabled: 'Endpoint enabled.',
  disabled: 'Endpoint disabled.',
  columns: {
    url: 'URL',
    description: 'Description',
    events: 'Events',
    state: 'State',
    created: 'Created',
    actions: 'Actions',
  },
  state: { enabled: 'Enabled', disabled: 'Disabled', failing: 'Failing' },
  failingSince: (when: string) => `Failing since ${when}`,
  actions: {
    deliveries: 'Deliveries',
    edit: 'Edit',
    test: 'Send test',
    rotate: 'Rotate secret',
    enable: 'Enable',
    disable: 'Disable',
    delete: 'Delete',
  },
  actionsFor: (url: string) => `Actions for ${url}`,
  form: {
    createTitle: 'Add a webhook endpoint',
    editTitle: 'Edit the webhook endpoint',
    url: 'URL',
    urlHelp: 'An https URL of your system. Private and local addresses are refused.',
    description: 'Description',
    events: 'Events',
    eventsHelp: 'Pick at least one.',
    save: 'Save',
    create: 'Add',
    cancel: 'Cancel',
  },
  events: {
    'request.created': 'A request is created',
    'request.status_changed': "A request's status changes",
    'report.ready': 'A report (SAVi or IRiS) is ready',
  } satisfies Record<WebhookEvent, string>,
  secret: {
    createdTitle: 'Endpoint added: its signing secret',
    rotatedTitle: 'The new signing secret',
    warning:
      'Copy the secret now: it is shown this once. Your system verifies each webhook with it (Standard Webhooks: the webhook-id, webhook-timestamp and webhook-signature headers).',
    label: 'Signing secret',
  },
  rotateTitle: 'Rotate the secret?',
  rotateBody: (url: string) =>
    `Webhooks to ${url} will be signed with a new secret at once; the old secret stops verifying them.`,
  rotate: 'Rotate',
  deleteTitle: 'Delete the endpoint?',
  deleteBody: (url: string) => `Nothing more will be sent to ${url}, and its deliveries are deleted with it.`,
  deliveries: {
    title: (url: string) => `Deliveries to ${url}`,
    none: 'No deliveries yet.',
    event: 'Event',
    type: 'Type',
    status: 'Status',
    code: 'Answer',
    duration: 'Duration',
    attempts: 'Attempts',
    when: 'Created',
    next: 'Next attempt',
    redeliver: 'Redeliver',
    redeliverLabel: (eventId: string) => `Redeliver ${eventId}`,
    close: 'Close',
    statusText: { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' },
    noAnswer: 'none',
    ms: (ms: number) => `${ms} ms`,
    attemptsLine: (n: number, error: string | null) => (error ? `${n} (${error})` : String(n)),
    page: 'Deliveries pages',
  },
} as const;

/** A group admin's integration page (issue 22): /services/admin/my-group, its three tabs. */
export const INTEGRATION_TEXT = {
  navLabel: (group: string | null | undefined) => (group ? `Integration of ${group}` : 'Integration'),
  tabs: { apiKeys: API_KEYS_TEXT.title, webhooks: WEBHOOKS_TEXT.title, usage: USAGE_TEXT.title },
} as const;
