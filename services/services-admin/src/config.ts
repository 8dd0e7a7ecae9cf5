import { loadBaseConfig, type BaseConfig } from '@portal/server-kit';

/** services-admin: the shared settings (docs/conventions.md); port 3005, `PORT` overrides. */
export interface ServicesAdminConfig extends BaseConfig {
  /** WEBHOOKS_ALLOW_PRIVATE_TARGETS=true: webhook URLs may name private, loopback and link-local hosts. */
  webhooksAllowPrivateTargets: boolean;
}

export function loadServicesAdminConfig(
  env: Record<string, string | undefined> = process.env,
): ServicesAdminConfig {
  return {
    ...loadBaseConfig('services-admin', 3005, env),
    webhooksAllowPrivateTargets: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS?.trim().toLowerCase() === 'true',
  };
}
