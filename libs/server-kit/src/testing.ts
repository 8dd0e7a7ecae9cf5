import { INTERNAL_ROUTES, sessionClaimsOf, type ClaimsSubject } from '@portal/domain';
import { spawn, type ChildProcess } from 'node:child_process';
import { createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE, type SessionClaims } from '@portal/contracts';
import type { SignedClaims } from './auth';
import { matchRoute, readServicesTable, routesOf } from './services-table';
import { findWorkspaceRoot } from './workspace';

/**
 * Sessions for tests and benchmarks of the services that verify them (@portal/server-kit/testing): a JWT
 * signed with a throwaway private key (ensureKeyPair), holding the claims identity would put in it, so the
 * service under test runs its real authPlugin. Not for production code: only identity signs sessions.
 */

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A signed session token (RS256) with the given claims; valid for `ttlSeconds` (default an hour). */
export function signTestSession(
  privateKeyFile: string,
  claims: Pick<SessionClaims, 'sub' | 'email'> & Partial<SessionClaims>,
  ttlSeconds = 3600,
): string {
  const now = Math.floor(Date.now() / 1000);
  const full: SignedClaims = {
    name: 'Test User',
    roles: ['authenticated'],
    groupId: null,
    claimsUser: false,
    iat: now,
    exp: now + ttlSeconds,
    ims: Date.now(),
    ...claims,
  };
  const unsigned = `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url(full)}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(readFileSync(privateKeyFile));
  return `${unsigned}.${signature.toString('base64url')}`;
}

/** A user as the tests read it (libs/db's UserEntity): what identity puts in the session's claims. */
export type SessionUser = ClaimsSubject;

/** The session token identity would sign for `user` (its roles from its flags), for tests. */
export const signTestSessionFor = (privateKeyFile: string, user: SessionUser, ttlSeconds?: number) =>
  signTestSession(privateKeyFile, sessionClaimsOf(user), ttlSeconds);

/** The Cookie header carrying a session token. */
export const sessionCookieHeader = (token: string) => `${SESSION_COOKIE}=${token}`;

/** Paths a service answers on its own port only, never through the gateway (the route table's list). */
const INTERNAL_PATHS = new Set<string>(INTERNAL_ROUTES);

/**
 * A concrete path for a route pattern: every parameter and wildcard becomes `1`, so the router finds the
 * route (the handler may then refuse the value: a 400 or a handler's own 404 still shows the route is there).
 */
export const samplePath = (pattern: string) =>
  pattern.replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, '1').replace(/\*/g, '1');

/**
 * Walks the app's registered routes (server-kit's createServiceApp records them) and asks each one with and
 * without its trailing slash, as the spec writes paths both ways. Answers the problems: a form the router does
 * not find (the 404 'No route for …' of the not-found handler), or, given the service's name, a form the
 * gateway's prefix table (config/services.json) does not send to this service. Empty means all is well.
 * Every call is anonymous and bodiless, from its own address (no rate limit counts twice).
 */
export async function trailingSlashProblems(
  app: FastifyInstance,
  options: { service?: string; servicesFile?: string } = {},
): Promise<string[]> {
  const table = options.service
    ? routesOf(
        readServicesTable(options.servicesFile ?? join(findWorkspaceRoot(), 'config', 'services.json')),
      )
    : [];
  const problems: string[] = [];
  const seen = new Set<string>();
  let address = 0;
  for (const { method, url } of app.registeredRoutes) {
    if (method === 'HEAD' || !url.startsWith('/')) continue;
    const bare = samplePath(url).replace(/\/+$/, '') || '/';
    for (const path of bare === '/' ? ['/'] : [bare, `${bare}/`]) {
      if (seen.has(`${method} ${path}`)) continue;
      seen.add(`${method} ${path}`);
      address++;
      const answer = await app.inject({
        method: method as 'GET',
        url: path,
        remoteAddress: `10.250.${(address >> 8) & 255}.${address & 255}`,
      });
      if (
        answer.statusCode === 404 &&
        /^No route for/.test(answer.json<{ message?: string }>().message ?? '')
      )
        problems.push(`${method} ${path}: no route (registered as ${url})`);
      if (options.service && !INTERNAL_PATHS.has(bare)) {
        const routed = matchRoute(table, path)?.service;
        if (routed !== options.service)
          problems.push(
            `${method} ${path}: the gateway sends it to ${routed ?? 'nobody'}, not ${options.service}`,
          );
      }
    }
  }
  return problems;
}

/** A redis-server of a test's own (see startThrowawayRedis): stop it and start it again on the same port. */
export interface ThrowawayRedis {
  url: string;
  /** SIGKILL, as a crash: whatever it held is gone (nothing is kept on disk). */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port (nothing when it runs); resolves once it accepts connections. */
  start(): Promise<void>;
}

/**
 * Starts redis-server (the machine's binary) on a free port without persistence, for tests that stop Redis
 * under a client: the shared Redis of the other tests is never touched. Call `stop()` when done.
 */
export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
    probe.once('error', reject);
  });
  let child: ChildProcess | undefined;
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const start = async () => {
    if (running()) return;
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      started.once('error', (err) => reject(new Error(`redis-server could not be started: ${err.message}`)));
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
      started.stdout!.on('data', (chunk) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) resolve();
      });
    });
  };
  const stop = async () => {
    const stopping = child;
    if (!stopping || !running()) return;
    const exited = new Promise((resolve) => stopping.once('exit', resolve));
    stopping.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}
