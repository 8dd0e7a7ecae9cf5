import { isAbsolute, join } from 'node:path';
import { findWorkspaceRoot, intFromEnv, loadBaseConfig, type BaseConfig } from '@portal/server-kit';
import { readServicesTable, type ServicesTable } from './services-table';
import { parseUpstreams } from './upstreams';

type Env = Record<string, string | undefined>;

/** A back-end service by its name in config/services.json ('identity', 'requests', …). */
export type ServiceName = string;

/** `services-admin` -> `SERVICES_ADMIN_URL`: the setting that moves a service elsewhere. */
export const serviceUrlSetting = (service: ServiceName) => `${service.toUpperCase().replace(/-/g, '_')}_URL`;

export interface GatewayConfig extends BaseConfig {
  workspaceRoot: string;
  /** The built shell (index.html, remote-independent assets). */
  shellDist: string;
  /** The JSON file behind /remotes.json; re-read whenever it changes. */
  remotesFile: string;
  /** config/services.json: the services, their local ports and the path prefixes routed to each. */
  servicesTable: ServicesTable;
  /**
   * Base URL of each service, e.g. http://127.0.0.1:3001; several instances of it separated by commas
   * (`<NAME>_URL=http://10.0.0.5:3001,http://10.0.0.6:3001`), taken in turn, one that refuses skipped.
   */
  serviceUrls: Record<ServiceName, string>;
  /** How long to wait for an upstream's answer headers before giving up with a 504. */
  upstreamTimeoutMs: number;
  /** The pause before a GET whose connection failed (refused, closed unanswered) is sent once more. */
  retryDelayMs: number;
  /** How long an instance that refused a connection is left out of its service's turn. */
  upstreamDownMs: number;
  /** How long an instance that answered `Connection: close` (it is stopping) is left out of the turn. */
  upstreamDrainMs: number;
  /**
   * How long a kept-alive connection to a service stays idle before the gateway closes it; shorter than a
   * stopping service's wait for its connections (SHUTDOWN_LINGER_MS), so a restart never cuts one in use.
   */
  upstreamIdleMs: number;
  /**
   * Whether a proxy in front of the gateway (TLS terminator, load balancer) sets X-Forwarded-*.
   * Off by default: the gateway is the edge, so a client's own X-Forwarded-For must not be believed.
   */
  trustProxy: boolean;
  /** Extra origins for images and fetches, e.g. an outside tile or imagery server. */
  cspExtraOrigins: string[];
  /** How long the merged API document (/api/openapi.json) is served before the services are asked again. */
  openapiCacheMs: number;
}

const fromRoot = (root: string, path: string) => (isAbsolute(path) ? path : join(root, path));

export function loadGatewayConfig(env: Env = process.env): GatewayConfig {
  const base = loadBaseConfig('gateway', 8080, env);
  const workspaceRoot = findWorkspaceRoot();
  const servicesTable = readServicesTable(
    fromRoot(workspaceRoot, env.GATEWAY_SERVICES_FILE || 'config/services.json'),
  );
  const serviceUrls = Object.fromEntries(
    servicesTable.services.map(({ name, port }) => [
      name,
      parseUpstreams(env[serviceUrlSetting(name)] || `http://127.0.0.1:${port}`).join(','),
    ]),
  );
  return {
    ...base,
    // The gateway's own port is the public one: its metrics are on config/services.json's
    // gateway.metricsPort (METRICS_PORT moves it), never on the portal's URL.
    metricsPort: base.metricsPort ?? servicesTable.gateway?.metricsPort ?? 9080,
    workspaceRoot,
    shellDist: fromRoot(workspaceRoot, env.SHELL_DIST || 'shell/dist'),
    remotesFile: fromRoot(workspaceRoot, env.GATEWAY_REMOTES_FILE || 'config/remotes.json'),
    servicesTable,
    serviceUrls,
    upstreamTimeoutMs: intFromEnv(env, 'GATEWAY_UPSTREAM_TIMEOUT_MS', 60_000),
    retryDelayMs: intFromEnv(env, 'GATEWAY_RETRY_DELAY_MS', 250),
    upstreamDownMs: intFromEnv(env, 'GATEWAY_UPSTREAM_DOWN_MS', 1_000),
    upstreamDrainMs: intFromEnv(env, 'GATEWAY_UPSTREAM_DRAIN_MS', 3_000),
    upstreamIdleMs: intFromEnv(env, 'GATEWAY_UPSTREAM_IDLE_MS', 2_000),
    trustProxy: ['1', 'true', 'yes', 'on'].includes((env.GATEWAY_TRUST_PROXY ?? '').toLowerCase()),
    cspExtraOrigins: (env.GATEWAY_CSP_EXTRA_ORIGINS ?? '').split(/[\s,]+/).filter(Boolean),
    openapiCacheMs: intFromEnv(env, 'GATEWAY_OPENAPI_CACHE_MS', 30_000),
  };
}
