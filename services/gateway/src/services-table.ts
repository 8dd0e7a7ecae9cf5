// The services table and its reading live in server-kit: the services' tests check, by the same rules, that
// the gateway sends each of their paths to them.
export { readServicesTable, routesOf, type ServiceEntry, type ServicesTable } from '@portal/server-kit';
