import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { RegisteredRoute } from '@portal/server-kit';
import type { AuditPortal } from './harness';

/**
 * The gateway in-process for the audit (issue 22): its own routes (/remotes.json, /api/openapi.json, the
 * reference at /api/docs, /health, /ready, the remotes' bundles and the shell's files), with the services
 * behind it being the audit portal's apps, listening on ports of their own so that the merged API document
 * and the readiness check read the real ones. The shell and a remote are a few files in a folder of the
 * run's; beside them lies a file no path may ever serve (SECRET_TEXT: what a traversal would find).
 */

export const SECRET_TEXT = 'root:x:0:0:audit-secret:/root:/bin/sh';
export const SHELL_INDEX = '<!doctype html><title>Property portal</title><div id="root"></div>';

export interface AuditGateway {
  app: FastifyInstance;
  /** The gateway's own routes: every registered route but the proxy's mount paths (HEAD aside). */
  routes: RegisteredRoute[];
  close(): Promise<void>;
}

export async function openAuditGateway(portal: AuditPortal): Promise<AuditGateway> {
  const root = mkdtempSync(join(tmpdir(), 'api-audit-gateway-'));
  const shellDist = join(root, 'public', 'shell');
  const remoteDist = join(root, 'public', 'remote');
  mkdirSync(join(shellDist, 'assets'), { recursive: true });
  mkdirSync(remoteDist, { recursive: true });
  writeFileSync(join(shellDist, 'index.html'), SHELL_INDEX);
  writeFileSync(join(shellDist, 'main.0123abcd.js'), 'console.log("shell");');
  writeFileSync(join(remoteDist, 'remoteEntry.js'), 'var remoteA;');
  for (const dir of [root, join(root, 'public')]) writeFileSync(join(dir, 'secret.txt'), SECRET_TEXT);
  const remotesFile = join(root, 'remotes.json');
  writeFileSync(
    remotesFile,
    JSON.stringify({
      remotes: [
        { name: 'remoteA', entry: '/remotes/remoteA/remoteEntry.js', routes: ['/a'], dist: remoteDist },
      ],
    }),
  );

  const listening: FastifyInstance[] = [];
  let gateway: FastifyInstance | undefined;
  const close = async () => {
    await gateway?.close().catch(() => undefined);
    // The services stop listening; the portal closes them.
    await Promise.all(listening.map((app) => new Promise((resolve) => app.server.close(resolve))));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    // Loaded here, not at the top: the services' suites do not depend on the gateway's modules loading.
    const { buildApp: buildGateway } = await import('../../services/gateway/src/app');
    const { loadGatewayConfig } = await import('../../services/gateway/src/config');
    const { proxyMountPaths } = await import('../../services/gateway/src/route-table');
    const { routesOf } = await import('../../services/gateway/src/services-table');
    const defaults = loadGatewayConfig({});
    const serviceUrls: Record<string, string> = { ...defaults.serviceUrls };
    for (const service of portal.services) {
      await service.app.listen({ host: '127.0.0.1', port: 0 });
      listening.push(service.app);
      serviceUrls[service.name] = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
    }
    // A service of the table the audit does not build (none today) is a port nothing listens on.
    const table = routesOf(defaults.servicesTable);
    gateway = buildGateway(
      {
        ...defaults,
        logLevel: 'silent',
        metricsPort: 0,
        workspaceRoot: root,
        shellDist,
        remotesFile,
        serviceUrls,
        upstreamTimeoutMs: 10_000,
      },
      { routes: table },
    );
    await gateway.ready();
    const mounts = new Set(proxyMountPaths(table));
    const routes = gateway.registeredRoutes.filter(
      (route) => route.method !== 'HEAD' && !mounts.has(route.url),
    );
    return { app: gateway, routes, close };
  } catch (err) {
    await close();
    throw err;
  }
}
