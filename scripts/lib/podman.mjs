// Podman on this kind of machine (Debian 12 as root, no systemd, no image registry reachable), shared by
// scripts/containers-test.mjs (the Kubernetes manifests under `podman play kube`) and
// scripts/compose-podman.mjs (docker/compose.yml under docker-compose and podman's Docker API):
// - podman needs the runc runtime, the cgroupfs manager and no default ulimits: a containers.conf written
//   to the cache folder and passed in CONTAINERS_CONF (`podmanEnv`), and the same as flags;
// - the Node base image is built locally: a Debian bookworm minbase from Debian's archive (debootstrap,
//   cached) plus this machine's Node (`which node`) and npm, imported as localhost/portal-node:20 and
//   passed to every Dockerfile of docker/ as NODE_IMAGE;
// - the images build from a snapshot of the working tree (git's files, nothing built or installed).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const CACHE = process.env.PORTAL_CONTAINERS_CACHE || '/var/tmp/portal-containers';
export const BASE_IMAGE = 'localhost/portal-node:20';

/** A step that cannot go on; the scripts print its message alone. */
export class Failed extends Error {}
export const fail = (text) => {
  throw new Failed(text);
};

export function which(command) {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

export const runc = () => which('runc') || '/usr/bin/runc';

/** containers.conf for this kind of machine (written into the cache on first use); podman reads it from CONTAINERS_CONF. */
let conf;
export function containersConf() {
  if (conf) return conf;
  mkdirSync(CACHE, { recursive: true });
  conf = join(CACHE, 'containers.conf');
  writeFileSync(
    conf,
    `[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\nruntime = "runc"\n`,
  );
  return conf;
}
export const podmanEnv = () => ({ ...process.env, CONTAINERS_CONF: containersConf() });
/** The flags every podman call gets (the same as containers.conf, for podman versions that read neither). */
export const podmanFlags = () => ['--runtime', runc(), '--cgroup-manager', 'cgroupfs'];

/** podman with its output captured; fails on a non-zero exit unless allowFail. */
export function podman(podmanArgs, { input, quiet = false, allowFail = false } = {}) {
  if (!quiet) console.log(`$ podman ${podmanArgs.join(' ')}`);
  const result = spawnSync('podman', [...podmanFlags(), ...podmanArgs], {
    env: podmanEnv(),
    input,
    encoding: 'utf8',
    stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0 && !allowFail)
    fail(
      `podman ${podmanArgs.slice(0, 3).join(' ')} exited ${result.status}:\n${(result.stderr || '').slice(-4000)}`,
    );
  return result;
}

/** podman with its output streamed (builds: long and worth watching). */
export function podmanStreamed(podmanArgs) {
  console.log(`$ podman ${podmanArgs.join(' ')}`);
  const result = spawnSync('podman', [...podmanFlags(), ...podmanArgs], {
    env: podmanEnv(),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) fail(`podman ${podmanArgs.slice(0, 2).join(' ')} exited ${result.status}`);
}

export const imageExists = (ref) =>
  podman(['image', 'exists', ref], { quiet: true, allowFail: true }).status === 0;

function importRootfs(rootfs, image, changes) {
  const tar = spawnSync('tar', ['-C', rootfs, '-c', '.'], { maxBuffer: 2 * 1024 * 1024 * 1024 });
  if (tar.status !== 0) fail(`tar of ${rootfs} failed`);
  const imported = spawnSync(
    'podman',
    [...podmanFlags(), 'import', ...changes.flatMap((c) => ['--change', c]), '-', image],
    {
      env: podmanEnv(),
      input: tar.stdout,
      stdio: ['pipe', 'inherit', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (imported.status !== 0) fail(`podman import of ${image} failed`);
}

/** Debian bookworm minbase from Debian's archive (debootstrap), cached in CACHE/rootfs. */
function debianRootfs() {
  const rootfs = join(CACHE, 'rootfs');
  if (!existsSync(join(rootfs, 'etc/debian_version'))) {
    if (!which('debootstrap')) fail('debootstrap is not installed (apt-get install -y debootstrap)');
    rmSync(rootfs, { recursive: true, force: true });
    execFileSync(
      'debootstrap',
      ['--variant=minbase', '--include=ca-certificates', 'bookworm', rootfs, 'http://deb.debian.org/debian'],
      { stdio: 'inherit' },
    );
  }
  return rootfs;
}

/** This machine's extra certificate authorities (an egress proxy's), so apt and npm trust what the host trusts. */
function addHostCertificates(rootfs) {
  const extraCas = '/usr/local/share/ca-certificates';
  if (existsSync(extraCas)) execFileSync('cp', ['-a', `${extraCas}/.`, join(rootfs, extraCas)]);
  execFileSync('chroot', [rootfs, 'update-ca-certificates'], { stdio: 'ignore' });
}

/** localhost/portal-node:20: the minbase plus this machine's Node and npm, a `node` user (uid 1000). */
export function buildBaseImage() {
  if (imageExists(BASE_IMAGE)) return console.log(`${BASE_IMAGE} present`);
  console.log(`\n== building ${BASE_IMAGE} (debootstrap bookworm minbase + this machine's Node)`);
  const rootfs = debianRootfs();
  const node = realpathSync(which('node'));
  const npmDir = realpathSync(join(dirname(node), '../lib/node_modules/npm'));
  execFileSync('cp', [node, join(rootfs, 'usr/bin/node')]);
  mkdirSync(join(rootfs, 'usr/lib/node_modules'), { recursive: true });
  rmSync(join(rootfs, 'usr/lib/node_modules/npm'), { recursive: true, force: true });
  execFileSync('cp', ['-a', npmDir, join(rootfs, 'usr/lib/node_modules/npm')]);
  execFileSync('ln', ['-sf', '../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/bin/npm')]);
  execFileSync('ln', ['-sf', '../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/bin/npx')]);
  // The `node` user (uid 1000) the images run as, as in the official node images.
  const passwd = readFileSync(join(rootfs, 'etc/passwd'), 'utf8');
  if (!passwd.includes('\nnode:'))
    execFileSync('chroot', [rootfs, 'useradd', '-m', '-u', '1000', '-U', '-s', '/bin/bash', 'node']);
  // Node reads the system bundle (with the host's extra authorities) through NODE_EXTRA_CA_CERTS.
  addHostCertificates(rootfs);
  // npm's global settings (e.g. its cafile), as this machine's npm has them; with Node's headers, so
  // node-gyp compiles native modules without downloading them (nodedir).
  const npmrc = join(dirname(node), '../etc/npmrc');
  let settings = existsSync(npmrc) ? readFileSync(npmrc, 'utf8') : '';
  const headers = join(dirname(node), '../include/node');
  if (existsSync(headers)) {
    mkdirSync(join(rootfs, 'usr/include'), { recursive: true });
    rmSync(join(rootfs, 'usr/include/node'), { recursive: true, force: true });
    execFileSync('cp', ['-a', headers, join(rootfs, 'usr/include/node')]);
    settings += `${settings && !settings.endsWith('\n') ? '\n' : ''}nodedir=/usr\n`;
  }
  mkdirSync(join(rootfs, 'usr/etc'), { recursive: true });
  writeFileSync(join(rootfs, 'usr/etc/npmrc'), settings);
  execFileSync('chroot', [rootfs, 'apt-get', 'clean']);
  importRootfs(rootfs, BASE_IMAGE, [
    'CMD ["node"]',
    'ENV PATH=/usr/local/bin:/usr/bin:/bin',
    'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt',
  ]);
  const version = podman(['run', '--rm', '--network', 'host', BASE_IMAGE, 'node', '--version'], {
    quiet: true,
  });
  console.log(`${BASE_IMAGE}: node ${version.stdout.trim()}`);
}

/** The build context: the working tree's files (git's, tracked or not ignored), nothing built or installed. */
export function snapshotContext(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  })
    .toString()
    .split('\0')
    .filter((f) => f && existsSync(join(root, f)));
  const list = join(CACHE, 'context-files');
  writeFileSync(list, files.join('\0'));
  execFileSync('sh', ['-c', `tar -C '${root}' --null -T '${list}' -c | tar -C '${dir}' -x`]);
}

/** The images of docker/: `docker/Dockerfile.<name>` → `<name>` (gateway, identity, …, mf-iris). */
export const dockerfileNames = () =>
  readdirSync(join(root, 'docker'))
    .filter((f) => f.startsWith('Dockerfile.') && !f.endsWith('.dockerignore'))
    .map((f) => f.slice('Dockerfile.'.length))
    .sort();

/** `podman build` of docker/Dockerfile.<name> (or `dockerfile`) from `context`, FROM the local base. */
export function buildImage(
  name,
  context,
  { tag = `localhost/portal-${name}:latest`, dockerfile = `docker/Dockerfile.${name}`, args = {} } = {},
) {
  podmanStreamed([
    'build',
    // docker format: OCI images drop HEALTHCHECK.
    '--format',
    'docker',
    '--network',
    'host',
    '--layers',
    '--build-arg',
    `NODE_IMAGE=${BASE_IMAGE}`,
    ...Object.entries(args).flatMap(([key, value]) => ['--build-arg', `${key}=${value}`]),
    '-f',
    join(context, dockerfile),
    '-t',
    tag,
    context,
  ]);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `url` answers 200 (a container's /ready), polling every `everyMs`; fails after `seconds`. */
export async function waitForReady(url, seconds, everyMs = 1000) {
  const until = Date.now() + seconds * 1000;
  let last = '';
  while (Date.now() < until) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (err) {
      last = err.cause?.code || err.message;
    }
    await sleep(everyMs);
  }
  fail(`${url} did not answer 200 within ${seconds} s (last: ${last})`);
}
