import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { GATEWAY_ROUTES } from '@portal/contracts';
import { errorAnswer } from '@portal/server-kit';

/**
 * Webpack names its output `[name].[contenthash:8].js` (tools/webpack.common.cjs): such a file never
 * changes, so browsers may keep it for a year. Everything else (index.html, mf-manifest.json,
 * remoteEntry.js, unhashed files) must be revalidated, or a deploy would not reach the browsers.
 */
const CONTENT_HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+(\.map)?$/i;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** The copies the build writes beside a file, compressed once at the best ratio (tools/webpack.common.cjs). */
const PRECOMPRESSED_COPY = /\.(br|gz)$/;

export function cacheControlFor(file: string): string {
  return CONTENT_HASHED.test(basename(file).replace(PRECOMPRESSED_COPY, '')) ? IMMUTABLE : REVALIDATE;
}

/** Paths of files the web app is made of; a missing one is a 404, never the app's index page. */
const ASSET_EXTENSION =
  /\.(js|mjs|cjs|css|map|json|html|txt|xml|ico|png|jpe?g|gif|svg|webp|avif|woff2?|ttf|otf|eot|wasm|pdf|zip|csv|xlsx)$/i;

/**
 * The built shell: its files at the root, and for any other GET that a browser makes as a page load
 * (Accept: text/html, not a file path) the shell's index.html, so the client-side router owns the URL.
 * Also gives `reply.sendFile` (with the cache rules above) to the remotes' files.
 */
export async function registerShell(app: FastifyInstance, shellDist: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: shellDist,
    serve: false,
    cacheControl: false,
    dotfiles: 'ignore',
    // x.js.br / x.js.gz, written by the build, are sent for x.js to a browser that accepts them (the
    // compression plugin then leaves the answer alone); without a copy the file is compressed per request.
    preCompressed: true,
    setHeaders: (reply: FastifyReply, file: string) => {
      reply.header('cache-control', cacheControlFor(file));
    },
  });

  const indexHtml = join(shellDist, 'index.html');

  app.get<{ Params: { '*': string } }>(GATEWAY_ROUTES.shell, async (request, reply) => {
    const path = request.params['*'];
    const isPageLoad =
      path === '' || ((request.headers.accept ?? '').includes('text/html') && !ASSET_EXTENSION.test(path));
    if (!isPageLoad) return reply.sendFile(path);
    if (!existsSync(indexHtml)) {
      return reply
        .code(503)
        .send(
          errorAnswer(
            503,
            'The portal web app is not built yet: run `npm start` (it builds shell/dist).',
            request.id,
          ),
        );
    }
    return reply.sendFile('index.html');
  });
}
