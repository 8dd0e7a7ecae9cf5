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
//   shell has. A component only remotes use comes from the first remote that loads it.
const path = require('node:path');

const workspaceRoot = path.resolve(__dirname, '..');

const installedVersion = (packageName) =>
  require(require.resolve(`${packageName}/package.json`, { paths: [workspaceRoot] })).version;

// web-kit is a workspace library: read its own package.json so sharing does not depend on it being
// linked into node_modules.
const webKitVersion = require(path.join(workspaceRoot, 'libs/web-kit/package.json')).version;

function singleton(version) {
  return { singleton: true, eager: false, version, requiredVersion: `^${version}` };
}

const shared = {
  react: singleton(installedVersion('react')),
  'react/': singleton(installedVersion('react')),
  'react-dom': singleton(installedVersion('react-dom')),
  'react-dom/': singleton(installedVersion('react-dom')),
  // react-router is a singleton too, inside @portal/web-kit: everything imports routing from web-kit's
  // router.ts, so federation ships only the parts used (libs/web-kit/src/router.ts says why).
  '@reduxjs/toolkit': singleton(installedVersion('@reduxjs/toolkit')),
  'react-redux': singleton(installedVersion('react-redux')),
  '@mui/material': singleton(installedVersion('@mui/material')),
  '@mui/material/': singleton(installedVersion('@mui/material')),
  '@emotion/react': singleton(installedVersion('@emotion/react')),
  '@emotion/styled': singleton(installedVersion('@emotion/styled')),
  '@portal/web-kit': singleton(webKitVersion),
  // OpenLayers by module path, like MUI: web-kit's MapView and the layers, overlays and interactions a
  // remote adds to it must be one copy (OpenLayers keeps ids and instanceof checks per copy).
  ol: singleton(installedVersion('ol')),
  'ol/': singleton(installedVersion('ol')),
};

module.exports = { shared };
