import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findWorkspaceRoot } from '@portal/server-kit';
import { matchRoute, proxyMountPaths, type Route } from './route-table';
import { readServicesTable, routesOf } from './services-table';

/** The portal's own table, config/services.json. */
const ROUTES = routesOf(readServicesTable(join(findWorkspaceRoot(), 'config', 'services.json')));

const table: Route[] = [
  { prefix: '/api/things', service: 'identity' },
  { prefix: '/api/things/special', service: 'locator' },
  { prefix: '/api/things/special/exact', service: 'iris', exact: true },
  { prefix: '/api/folder/', service: 'requests' },
  { prefix: '/socket', service: 'requests', websocket: true },
];

const serviceOf = (url: string, routes: readonly Route[] = table) => matchRoute(routes, url)?.service;

describe('matchRoute', () => {
  it('picks the longest matching prefix', () => {
    expect(serviceOf('/api/things')).toBe('identity');
    expect(serviceOf('/api/things/1')).toBe('identity');
    expect(serviceOf('/api/things/special')).toBe('locator');
    expect(serviceOf('/api/things/special/2?x=1')).toBe('locator');
    expect(serviceOf('/api/things/special/exact')).toBe('iris');
  });

  it('matches whole path segments only', () => {
    expect(serviceOf('/api/thingsx')).toBeUndefined();
    expect(serviceOf('/api/things/specialist')).toBe('identity');
  });

  it('gives the paths below an exact entry to the next shorter prefix', () => {
    expect(serviceOf('/api/things/special/exact/below')).toBe('locator');
  });

  it('gives an exact entry its path with a trailing slash, before a prefix that ends in that slash', () => {
    const routes: Route[] = [
      { prefix: '/api/list', service: 'identity', exact: true },
      { prefix: '/api/list/', service: 'locator' },
    ];
    expect(serviceOf('/api/list', routes)).toBe('identity');
    expect(serviceOf('/api/list/', routes)).toBe('identity');
    expect(serviceOf('/api/list/1', routes)).toBe('locator');
  });

  it('matches only the paths below a prefix that ends in a slash', () => {
    expect(serviceOf('/api/folder/a')).toBe('requests');
    expect(serviceOf('/api/folder')).toBeUndefined();
  });

  it('ignores the query string', () => {
    expect(serviceOf('/api/things?/api/things/special')).toBe('identity');
  });
});

describe('the portal table', () => {
  it('sends the account, session, menu and audit paths to identity', () => {
    for (const url of [
      '/api/v1.0/users/me',
      '/api/v1.0/loggedin',
      '/api/v1.0/login',
      '/api/v1.0/register',
      '/api/v1.0/logout',
      '/api/v1.0/forgot-password',
      '/api/v1.0/reset/abc123',
      '/api/v1.0/passwordreset',
      '/api/v1.0/passwordresetcb',
      '/admin/menu/header',
      '/api/v1.0/audit/',
      '/api/v1.0/services',
    ]) {
      expect([url, serviceOf(url, ROUTES)]).toEqual([url, 'identity']);
    }
  });

  it('sends the administration paths to services-admin', () => {
    for (const url of [
      '/api/v1.0/services/all',
      '/api/v1.0/services/page-for-model?modelName=users&pageNumber=1&pageSize=20',
      '/api/v1.0/users',
      '/api/v1.0/users?search=nkosi&limit=20',
      '/api/v1.0/groups',
      '/api/v1.0/group/services',
      '/api/v1.0/group/6f1c/users',
      '/api/v1.0/group/6f1c/service/savi',
      '/api/v1.0/user/6f1c',
      '/api/v1.0/user/6f1c/services',
      '/api/v1.0/reportbuilder/rates/6f1c',
      '/api/v1.0/reportbuilder/rates/',
      '/api/v1.0/reportbuilder/rates/6f1c/export.xlsx',
      '/api/v1.0/reportbuilder/rates/6f1c/import',
    ]) {
      expect([url, serviceOf(url, ROUTES)]).toEqual([url, 'services-admin']);
    }
  });

  it('sends the request console, its exports and its realtime socket to requests', () => {
    for (const url of [
      '/api/v1.0/request/pager/?page=1&limit=20',
      '/api/v1.0/request/update_status',
      '/api/v1.0/request/savi/download_xlsx/7',
      '/api/v1.0/requests',
      '/api/v1.0/requests/?status=New',
      '/api/v1.0/reportbuilder/savi/markInvoiced',
      '/api/v1.0/reportbuilder/savi/createzip',
      '/api/v1.0/reportbuilder/savi/downloadzip/7',
      '/realtime/?EIO=4&transport=websocket',
    ]) {
      expect([url, serviceOf(url, ROUTES)]).toEqual([url, 'requests']);
    }
    expect(serviceOf('/api/v1.0/requestsx', ROUTES)).toBeUndefined();
    expect(serviceOf('/api/v1.0/requests/more', ROUTES)).toBeUndefined();
    expect(ROUTES.find((route) => route.prefix === '/realtime/')?.websocket).toBe(true);
  });

  it('sends the report builder its calls and images, keeping rates and the console calls elsewhere', () => {
    for (const url of [
      '/api/v1.0/reportbuilder/sections/6f1c',
      '/api/v1.0/reportbuilder/section',
      '/api/v1.0/reportbuilder/section/',
      '/api/v1.0/reportbuilder/requestComments?ID=6f1c',
      '/api/v1.0/reportbuilder/requestExtraField/value',
      '/api/v1.0/reportbuilder/totals/6f1c/',
      '/api/v1.0/reportbuilder/savi/6f1c/download',
      '/api/v1.0/reportbuilder/report/6f1c/savi/south%20africa/KMI/full',
      '/api/v1.0/reportbuilder/image/thumbnails/6f1c',
      '/api/v1.0/reportbuilder/savi/markInvoicedx',
      '/reportbuilder/assets/uploads/6f1c/property-base-image-cropped.png',
    ]) {
      expect([url, serviceOf(url, ROUTES)]).toEqual([url, 'reportbuilder']);
    }
    expect(serviceOf('/api/v1.0/reportbuilder/rates', ROUTES)).toBe('services-admin');
    expect(serviceOf('/api/v1.0/reportbuilder/rates/6f1c', ROUTES)).toBe('services-admin');
    for (const url of [
      '/api/v1.0/reportbuilder/savi/markInvoiced',
      '/api/v1.0/reportbuilder/savi/markInvoiced/',
      '/api/v1.0/reportbuilder/savi/createzip/',
      '/api/v1.0/reportbuilder/savi/downloadzip/7',
    ])
      expect([url, serviceOf(url, ROUTES)]).toEqual([url, 'requests']);
    expect(serviceOf('/reportbuilder/property-overview', ROUTES)).toBeUndefined();
  });

  it('sends the address editor its calls, and the address service stays with the locator', () => {
    for (const url of [
      '/api/v1.0/addresseditor/display_data/-33.93/18.86',
      '/api/v1.0/addresseditor/multi_parcel',
      '/api/v1.0/addresseditor/dequeue_validate_parcel/',
      '/api/v1.0/addaddress/get_point_data/-33.93/18.86',
      '/api/v1.0/addaddress/no_address_parcel',
    ])
      expect([url, serviceOf(url, ROUTES)]).toEqual([url, 'avs-editor']);
    expect(serviceOf('/api/avs/search', ROUTES)).toBe('locator');
  });

  it('routes to every service of the table except the workers', () => {
    const routed = new Set(ROUTES.map((route) => route.service));
    expect([...routed].sort()).toEqual([
      'avs-editor',
      'identity',
      'iris',
      'locator',
      'reportbuilder',
      'requests',
      'services-admin',
    ]);
  });

  it('keeps the own-services list and users/me with identity, and nothing else below /users', () => {
    expect(serviceOf('/api/v1.0/services', ROUTES)).toBe('identity');
    expect(serviceOf('/api/v1.0/services/', ROUTES)).toBe('identity');
    expect(serviceOf('/api/v1.0/services?x=1', ROUTES)).toBe('identity');
    expect(serviceOf('/api/v1.0/users/me', ROUTES)).toBe('identity');
    expect(serviceOf('/api/v1.0/users/me/', ROUTES)).toBe('identity');
    expect(serviceOf('/api/v1.0/users/', ROUTES)).toBe('services-admin');
    expect(serviceOf('/api/v1.0/users/other', ROUTES)).toBeUndefined();
    expect(serviceOf('/api/v1.0/userx', ROUTES)).toBeUndefined();
    // Not a rates path: the report builder answers it (its 404).
    expect(serviceOf('/api/v1.0/reportbuilder/ratesheet', ROUTES)).toBe('reportbuilder');
  });
});

describe('readServicesTable', () => {
  it('refuses a table with a service listed twice or without a port, naming the entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'services-table-'));
    const file = join(dir, 'services.json');
    writeFileSync(
      file,
      JSON.stringify({
        services: [
          { name: 'a', port: 1 },
          { name: 'a', port: 2 },
        ],
      }),
    );
    expect(() => readServicesTable(file)).toThrow(/services\[1\]: "a" is listed twice/);
    writeFileSync(file, JSON.stringify({ services: [{ name: 'b' }] }));
    expect(() => readServicesTable(file)).toThrow(/services\[0\]: "port" must be a port number/);
  });
});

describe('proxyMountPaths', () => {
  it('mounts all of /api and each entry outside it', () => {
    expect(proxyMountPaths(table).sort()).toEqual(['/api', '/api/*', '/socket', '/socket/*']);
    expect(proxyMountPaths(ROUTES).sort()).toEqual([
      '/admin/menu/*',
      '/admin/queues',
      '/admin/queues/*',
      '/api',
      '/api/*',
      '/ogc',
      '/ogc/*',
      '/realtime/*',
      '/reportbuilder/assets/uploads/*',
    ]);
  });
});
