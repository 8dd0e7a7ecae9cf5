// Each service image of docker/ carries every workspace library its service needs at run time. A runtime
// stage copies the libraries one by one (package.json and dist/, without the sources), so a library a
// service starts importing is easy to leave out: the requests image lacked @portal/pdf-jobs for weeks and
// only the containers test (`npm run test:containers`, not part of `npm test`) showed it, as a service that
// never became ready ("Cannot find module '@portal/pdf-jobs'"). Here the list is checked against the
// package.json `dependencies` of the service, followed through the libraries', on every `npm test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOCKER = path.join(ROOT, 'docker');

/** Every workspace package of libs/ and services/: name → { dir, dependencies on @portal/* }. */
function workspacePackages() {
  const packages = new Map();
  for (const parent of ['libs', 'services']) {
    for (const name of readdirSync(path.join(ROOT, parent))) {
      const file = path.join(ROOT, parent, name, 'package.json');
      if (!existsSync(file)) continue;
      const json = JSON.parse(readFileSync(file, 'utf8'));
      packages.set(json.name, {
        dir: `${parent}/${name}`,
        dependencies: Object.keys(json.dependencies ?? {}).filter((dep) => dep.startsWith('@portal/')),
      });
    }
  }
  return packages;
}

/** The @portal/* packages `name` needs at run time, its own dependencies' too. */
function runtimeLibraries(packages, name, seen = new Set()) {
  for (const dep of packages.get(name)?.dependencies ?? []) {
    if (seen.has(dep)) continue;
    seen.add(dep);
    runtimeLibraries(packages, dep, seen);
  }
  return seen;
}

const packages = workspacePackages();
const serviceImages = readdirSync(DOCKER)
  .filter((file) => /^Dockerfile\.[a-z-]+$/.test(file))
  .map((file) => ({ file, text: readFileSync(path.join(DOCKER, file), 'utf8') }))
  .map(({ file, text }) => ({
    file,
    text,
    service: /COPY --from=build \/app\/(services\/[a-z-]+)\/dist /.exec(text)?.[1],
  }))
  .filter((image) => image.service);

test('every service image of docker/ is found (one per service and worker)', () => {
  assert.ok(serviceImages.length >= 11, `found ${serviceImages.map((image) => image.file).join(', ')}`);
});

for (const { file, text, service } of serviceImages) {
  test(`${file} copies every workspace library ${service} needs at run time`, () => {
    const name = [...packages].find(([, pkg]) => pkg.dir === service)?.[0];
    assert.ok(name, `no package.json for ${service}`);
    const missing = [...runtimeLibraries(packages, name)]
      .map((library) => packages.get(library).dir)
      .filter(
        (dir) =>
          !text.includes(`/app/${dir}/dist ${dir}/dist`) ||
          !text.includes(`/app/${dir}/package.json ${dir}/`),
      );
    assert.deepEqual(
      missing,
      [],
      `${file}: add COPY lines for ${missing.join(', ')} (package.json and dist)`,
    );
  });
}

// Every image's health check names its retries: Docker takes an unset count as 3, podman (4.3, under
// docker-compose through its Docker API) as 0, so one slow check on a busy host made a container unhealthy
// and stopped `compose up` (docker/README.md, "compose.yml on a machine with no registry").
test('every HEALTHCHECK of docker/ names its retries (podman takes an unset count as 0)', () => {
  const unset = readdirSync(DOCKER)
    .filter((file) => /^Dockerfile\.[a-z-]+$/.test(file))
    .flatMap((file) =>
      readFileSync(path.join(DOCKER, file), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('HEALTHCHECK') && !/--retries=\d+/.test(line))
        .map(() => file),
    );
  assert.deepEqual(unset, [], `add --retries=3 (Docker's default) to the HEALTHCHECK of ${unset.join(', ')}`);
});
