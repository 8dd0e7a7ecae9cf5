// The one Module Federation `shared` configuration: the shell and every remote spread `shared` into
// their ModuleFederationPlugin, so each library below exists once in the browser: one React, one
// router, one Redux store and RTK Query api (through @portal/web-kit), one MUI and its theme.
//
// - Versions come from the installed packages (the root package.json pins one version of each).
// - Never eager: entries are `index.ts` -> `import('./bootstrap')`, so the share scope is settled before
//   any shared module runs.
// - `react/` and `react-dom/` (trailing slash) share the sub-paths too (react/jsx-runtime,
//   react-dom/client); without them React DOM and emotion load twice and the theme stops at the remote.
// - MUI is shared by component path (`@mui/material/`) as well as by its root. A shared module cannot
//   be tree-shaken, so `@mui/material` alone would put all of MUI (~150 kB gzip) on the login page: the
//   portal imports `@mui/material/Button` and the like, and a page loads only the components it uses.
//   The root and the paths resolve to the same files, so a container has one MUI either way.
// - Which copy wins: the shell registers its modules first with shareStrategy 'loaded-first', and the
//   federation runtime keeps such a registration, so the shell's copy is used for every module the
//   shell has.
// - The shell has every one of them: it provides (not loads) each shared module any web project of the
//   workspace imports (`sharedRequestsOfWorkspace` below; shell/webpack.config.cjs). Webpack provides only
//   the modules a build imports itself, so before that a remote brought its own copy of every MUI
//   component and OpenLayers module the shell does not use, and with it its own copy of their internals
//   (MUI's styling core, `ol/extent`, `ol/proj`, ...): modules shipped twice, and two instances of their
//   state — a remote's Select beside the shell's MenuItem lost its menu context ('MUI: MenuListContext is
//   missing'). A remote's own copies are still built (a fallback), but never load beside the shell.
const fs = require('node:fs');
const path = require('node:path');

const workspaceRoot = path.resolve(__dirname, '..');

const installedVersion = (packageName) =>
  require(require.resolve(`${packageName}/package.json`, { paths: [workspaceRoot] })).version;

// web-kit is a workspace library: read its own package.json so sharing does not depend on it being
// linked into node_modules.
const webKitVersion = require(path.join(workspaceRoot, 'libs/web-kit/package.json')).version;

// TypeBox's package exports do not include its package.json: read it by path.
function installedTypeBoxVersion() {
  const main = require.resolve('@sinclair/typebox', { paths: [workspaceRoot] });
  const root = main.slice(0, main.lastIndexOf(`${path.sep}@sinclair${path.sep}typebox${path.sep}`));
  return JSON.parse(fs.readFileSync(path.join(root, '@sinclair', 'typebox', 'package.json'), 'utf8')).version;
}

function singleton(version) {
  return { singleton: true, eager: false, version, requiredVersion: `^${version}` };
}

const shared = {
  react: singleton(installedVersion('react')),
  'react/': singleton(installedVersion('react')),
  'react-dom': singleton(installedVersion('react-dom')),
  'react-dom/': singleton(installedVersion('react-dom')),
  // react-router, Redux Toolkit (with RTK Query) and react-redux are singletons too, inside
  // @portal/web-kit: everything imports routing from web-kit's router.ts and Redux Toolkit from its
  // state.ts, so federation ships only the parts used (those files say why).
  '@mui/material': singleton(installedVersion('@mui/material')),
  '@mui/material/': singleton(installedVersion('@mui/material')),
  '@emotion/react': singleton(installedVersion('@emotion/react')),
  '@emotion/styled': singleton(installedVersion('@emotion/styled')),
  '@portal/web-kit': singleton(webKitVersion),
  // web-kit's sub-paths (`/grid`, `/locator`, `/imagery`) import web-kit's own modules (the locator api,
  // the map layers): shared, they come from the shell's one web-kit instead of a copy per remote.
  '@portal/web-kit/': singleton(webKitVersion),
  // The data grid of the request console and the services admin, by root and by path like MUI.
  '@mui/x-data-grid': singleton(installedVersion('@mui/x-data-grid')),
  '@mui/x-data-grid/': singleton(installedVersion('@mui/x-data-grid')),
  // TypeBox: @portal/contracts declares its schemas with it, in the shell and in every remote.
  '@sinclair/typebox': singleton(installedTypeBoxVersion()),
  '@sinclair/typebox/': singleton(installedTypeBoxVersion()),
  // OpenLayers by module path, like MUI: web-kit's MapView and the layers, overlays and interactions a
  // remote adds to it must be one copy (OpenLayers keeps ids and instanceof checks per copy).
  ol: singleton(installedVersion('ol')),
  'ol/': singleton(installedVersion('ol')),
  // Libraries the shell and a remote both use, each once: the realtime client (the notification bell and
  // the request console's live updates; each still opens its own connection), yup (the shell's account
  // forms and the services admin's dialogs) and hoist-non-react-statics (emotion's and formik's).
  'socket.io-client': singleton(installedVersion('socket.io-client')),
  yup: singleton(installedVersion('yup')),
  'hoist-non-react-statics': singleton(installedVersion('hoist-non-react-statics')),
};

/**
 * The files of @portal/contracts and @portal/domain that the shell and a remote both bundle, shared by file
 * (keyed by absolute path, which federation matches against each module's resolved file, however it was
 * imported): the shell's copy is the one loaded (tools/mf-library-files.cjs says which files and why).
 * Their share key names the library and the file, the same in every build.
 */
function sharedLibraryFiles() {
  const { libraryFilesSharedWithShell, LIBRARIES } = require('./mf-library-files.cjs');
  return Object.fromEntries(
    libraryFilesSharedWithShell().map((file) => {
      const [library, folder] = Object.entries(LIBRARIES).find(([, src]) => file.startsWith(src + path.sep));
      const version = require(path.join(folder, '..', 'package.json')).version;
      const shareKey = `${library}/${path.relative(folder, file).split(path.sep).join('/')}`;
      return [file, { singleton: true, eager: false, version, requiredVersion: false, shareKey }];
    }),
  );
}
Object.assign(shared, sharedLibraryFiles());

/** Whether `request` is one of the `shared` keys: the key itself, or under a key ending in `/`. */
function isSharedRequest(request) {
  return Object.keys(shared).some((key) => (key.endsWith('/') ? request.startsWith(key) : request === key));
}

const { webSourceFiles: sourceFiles } = require('./mf-library-files.cjs');

const IMPORT_PATTERN = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"\n]+)['"]/g;
/**
 * Every shared module (a request matching a `shared` key: `@mui/material/Select`, `ol/interaction/Draw`,
 * `@portal/web-kit/grid`, ...) that the web code of the workspace imports: the shell's and every remote's
 * sources and the `@portal/*` libraries they import (followed through tsconfig.base.json's paths), tests
 * left out. The shell provides all of them, so that no remote needs a copy of its own. Read from the
 * sources at build time: a remote that starts importing a new component gets it from the shell with the
 * next build, with no list to keep.
 */
function sharedRequestsOfWorkspace() {
  const { compilerOptions } = JSON.parse(
    fs.readFileSync(path.join(workspaceRoot, 'tsconfig.base.json'), 'utf8'),
  );
  const libraryFolders = Object.fromEntries(
    Object.entries(compilerOptions.paths).map(([name, [target]]) => [
      name,
      path.dirname(path.join(workspaceRoot, target)),
    ]),
  );
  const projects = fs
    .readdirSync(workspaceRoot)
    .filter((name) => name === 'shell' || name.startsWith('mf-'))
    .map((name) => path.join(workspaceRoot, name, 'src'));
  const folders = new Set(projects);
  const requests = new Set();
  for (const folder of folders) {
    for (const file of sourceFiles(folder)) {
      for (const [, request] of fs.readFileSync(file, 'utf8').matchAll(IMPORT_PATTERN)) {
        if (isSharedRequest(request)) requests.add(request);
        // A workspace library the web code imports: its imports count too (web-kit's MUI components).
        const library = libraryFolders[request] ?? libraryFolders[request.split('/').slice(0, 2).join('/')];
        if (request.startsWith('@portal/') && library) folders.add(library);
      }
    }
  }
  return [...requests].sort();
}

module.exports = { shared, sharedRequestsOfWorkspace };
