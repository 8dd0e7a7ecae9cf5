import { loadBaseConfig, type BaseConfig } from '@portal/server-kit';

/** services/requests needs only the shared settings (docs/conventions.md); port 3004, `PORT` overrides. */
export type RequestsConfig = BaseConfig;

export function loadRequestsConfig(env: Record<string, string | undefined> = process.env): RequestsConfig {
  return loadBaseConfig('requests', 3004, env);
}
