// The entry of the shell's and the remotes' artefact images: copies the built files in /dist into the
// shared web volume at /srv/web/<target> (overwriting, never deleting first: browsers still running the
// previous version can load its content-hashed chunks), then either exits (compose: a one-shot) or, with
// PUBLISH_SERVE=true (Kubernetes: a Deployment), stays up answering /health and, once the files are in
// place, /ready on PORT (default 8081) — so a rollout of one remote is a rollout of its own Deployment.
//   node /publish-static.mjs <target>        e.g. remotes/iris, shell
import { cpSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const target = process.argv[2];
if (!target || target.includes('..')) {
  console.error('usage: node publish-static.mjs <folder under /srv/web>');
  process.exit(2);
}
const destination = join(process.env.WEB_ROOT || '/srv/web', target);
mkdirSync(destination, { recursive: true });
cpSync('/dist', destination, { recursive: true, force: true });
console.log(`${target}: files copied to ${destination}`);

if (['1', 'true', 'yes'].includes((process.env.PUBLISH_SERVE ?? '').toLowerCase())) {
  const port = Number(process.env.PORT || 8081);
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const ok = path === '/health' || path === '/ready';
    response.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
    response.end(ok ? JSON.stringify({ status: 'ok', published: target }) : '{"statusCode":404}');
  });
  server.listen(port, process.env.HOST || '0.0.0.0', () =>
    console.log(`${target}: /health and /ready on ${port}`),
  );
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
}
