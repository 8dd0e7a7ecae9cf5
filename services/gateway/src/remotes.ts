import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ErrorAnswer, GATEWAY_ROUTES, RemoteEntry, RemotesManifest } from '@portal/contracts';
import { errorAnswer } from '@portal/server-kit';

/** A remote as configured: its public entry plus, when the gateway serves its bundle, the bundle's folder. */
export const ConfiguredRemote = Type.Composite([
  RemoteEntry,
  Type.Object({
    /** Folder of the built remote, relative to the workspace root; served at /remotes/<name>/. */
    dist: Type.Optional(Type.String({ minLength: 1 })),
  }),
]);
export type ConfiguredRemote = Static<typeof ConfiguredRemote>;

const RemotesFileContent = Type.Object({ remotes: Type.Array(ConfiguredRemote) });

/** Federation names are JavaScript identifiers; they also name a URL folder, so nothing else is allowed. */
const REMOTE_NAME = /^[A-Za-z_$][\w$]*$/;

export function parseRemotesFile(text: string): ConfiguredRemote[] {
  const content: unknown = JSON.parse(text);
  if (!Value.Check(RemotesFileContent, content)) {
    const first = Value.Errors(RemotesFileContent, content).First();
    throw new Error(`not a remotes list: ${first ? `${first.path || '/'} ${first.message}` : 'invalid'}`);
  }
  const seen = new Set<string>();
  for (const { name } of content.remotes) {
    if (!REMOTE_NAME.test(name)) throw new Error(`remote name '${name}' is not a JavaScript identifier`);
    if (seen.has(name)) throw new Error(`remote '${name}' is listed twice`);
    seen.add(name);
  }
  return content.remotes;
}

/**
 * The remotes list on disk, re-read whenever the file changes (checked on use, which costs one stat), so
 * a remote can be added or moved without restarting the gateway. While a changed file cannot be read
 * (half-written, invalid), the last good list stays in use.
 */
export class RemotesFile {
  private loaded?: { mtimeMs: number; size: number; remotes: ConfiguredRemote[] };
  private lastProblem?: string;

  constructor(
    readonly file: string,
    private readonly workspaceRoot: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async list(): Promise<ConfiguredRemote[]> {
    try {
      const info = await stat(this.file);
      if (this.loaded?.mtimeMs === info.mtimeMs && this.loaded.size === info.size) return this.loaded.remotes;
      const remotes = parseRemotesFile(await readFile(this.file, 'utf8'));
      this.loaded = { mtimeMs: info.mtimeMs, size: info.size, remotes };
      this.lastProblem = undefined;
      this.log.info({ file: this.file, remotes: remotes.map((r) => r.name) }, 'remotes list loaded');
      return remotes;
    } catch (err) {
      const problem = `${this.file}: ${(err as Error).message}`;
      if (problem !== this.lastProblem) {
        this.log.error(
          { problem },
          this.loaded ? 'remotes list unreadable, keeping the previous one' : 'remotes list unreadable',
        );
        this.lastProblem = problem;
      }
      if (this.loaded) return this.loaded.remotes;
      throw err;
    }
  }

  /** Absolute folder of a remote's bundle, if the gateway serves it. */
  distFolder(remote: ConfiguredRemote): string | undefined {
    if (!remote.dist) return undefined;
    return isAbsolute(remote.dist) ? remote.dist : join(this.workspaceRoot, remote.dist);
  }
}

/**
 * GET /remotes.json (what the shell loads at start) and GET /remotes/<name>/* (the bundles of the remotes
 * the gateway hosts). A remote whose folder is missing answers 404, and the shell shows its contained error.
 */
export function registerRemotes(app: FastifyInstance, remotesFile: RemotesFile): void {
  app.get(
    GATEWAY_ROUTES.remotesManifest,
    { schema: { response: { 200: RemotesManifest, 500: ErrorAnswer } } },
    async (request, reply) => {
      let remotes: ConfiguredRemote[];
      try {
        remotes = await remotesFile.list();
      } catch {
        return reply
          .code(500)
          .send(
            errorAnswer(
              500,
              'The list of remotes cannot be read right now (see the gateway log).',
              request.id,
            ),
          );
      }
      reply.header('cache-control', 'no-cache');
      return { remotes: remotes.map(({ dist: _dist, ...entry }) => entry) };
    },
  );

  app.get<{ Params: { name: string; '*': string } }>(GATEWAY_ROUTES.remoteBundle, async (request, reply) => {
    const remotes = await remotesFile.list().catch(() => []);
    const remote = remotes.find((r) => r.name === request.params.name);
    const folder = remote && remotesFile.distFolder(remote);
    if (!folder) return reply.callNotFound();
    return reply.sendFile(request.params['*'], folder);
  });
}
