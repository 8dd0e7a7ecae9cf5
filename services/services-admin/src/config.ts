import { loadBaseConfig, type BaseConfig } from '@portal/server-kit';

/** services-admin needs only the shared settings (docs/conventions.md); port 3005, `PORT` overrides. */
export type ServicesAdminConfig = BaseConfig;

export function loadServicesAdminConfig(
  env: Record<string, string | undefined> = process.env,
): ServicesAdminConfig {
  return loadBaseConfig('services-admin', 3005, env);
}
