// The shell: Module Federation host with no static remotes (they come from /remotes.json at run time).
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { createWebConfig, providedForRemotes } = require('../tools/webpack.common.cjs');
const { shared, sharedRequestsOfWorkspace } = require('../tools/mf-shared.cjs');

module.exports = (_env, argv) =>
  createWebConfig(
    {
      name: 'shell',
      projectDir: __dirname,
      // The second module only names every shared module the remotes import, so that the shell provides
      // it and no remote ships a copy of its own (tools/mf-shared.cjs); it loads none of them.
      entry: { main: ['./src/index.ts', providedForRemotes(sharedRequestsOfWorkspace())] },
      publicDir: 'public',
      host: true,
      plugins: [
        new ModuleFederationPlugin({
          name: 'shell',
          // Load a shared module from whoever already loaded it, instead of fetching every remote entry
          // at start-up to compare versions: one dead remote must not hang the portal.
          shareStrategy: 'loaded-first',
          shared,
          // A host: no types to publish, no manifest to describe it.
          dts: false,
          manifest: false,
          // Browser only: leave the Node script loader out of the federation runtime.
          // provideExternalRuntime: the remotes are built without the federation runtime
          // (externalRuntime, tools/webpack.common.cjs) and use this one, so it is not shipped twice.
          experiments: { optimization: { target: 'web' }, provideExternalRuntime: true },
        }),
        new HtmlWebpackPlugin({
          template: './src/index.html',
          // Absolute: the page is served for every client-side route (/auth/login, /reset/x, ...).
          publicPath: '/',
          // main.js has no hash in its name (see tools/webpack.common.cjs): bust caches with a query.
          hash: true,
        }),
      ],
    },
    argv,
  );
