// The ModuleFederationPlugin every webpack config uses (shell and remotes): take it from here, not from
// @module-federation/enhanced directly.
//
// Why: @module-federation/enhanced 2.9.2 deep-requires webpack internals by path (webpack/lib/...), and
// webpack 5.107+ moved several of those files into sub-folders (module-federation/core#4747). Until the
// two are back in step (an MF release that stops deep-requiring, or a webpack pinned where every path
// resolves), the old paths below are sent to the files' new places. A path that still resolves is left
// alone, so this does nothing on a webpack that has them.
const Module = require('node:module');

const MOVED_WEBPACK_FILES = {
  'webpack/lib/HotUpdateChunk': 'webpack/lib/graph/HotUpdateChunk',
  'webpack/lib/ModuleFactory': 'webpack/lib/module/ModuleFactory',
  'webpack/lib/dependencies/EntryDependency': 'webpack/lib/entry/EntryDependency',
  'webpack/lib/dependencies/ModuleDependency': 'webpack/lib/dependencies/core/ModuleDependency',
  'webpack/lib/dependencies/StaticExportsDependency': 'webpack/lib/dependencies/core/StaticExportsDependency',
  'webpack/lib/util/extractUrlAndGlobal': 'webpack/lib/externals/extractUrlAndGlobal',
  'webpack/lib/util/fs': 'webpack/lib/fs/fs',
  'webpack/lib/util/semver': 'webpack/lib/sharing/semver',
};

const resolves = (request) => {
  try {
    require.resolve(request);
    return true;
  } catch {
    return false;
  }
};

const redirects = new Map(Object.entries(MOVED_WEBPACK_FILES).filter(([oldPath]) => !resolves(oldPath)));

if (redirects.size > 0) {
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function resolveMovedWebpackFile(request, ...rest) {
    return resolveFilename.call(this, redirects.get(request) ?? request, ...rest);
  };
}

const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');

module.exports = { ModuleFederationPlugin };
