// The address editor remote: no entry of its own, it exposes its routes to the shell, which loads them at
// run time from /remotes.json (see shell/README.md, "Writing a remote").
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { createWebConfig } = require('../tools/webpack.common.cjs');
const { shared } = require('../tools/mf-shared.cjs');

module.exports = (_env, argv) =>
  createWebConfig(
    {
      name: 'avsEditor',
      projectDir: __dirname,
      plugins: [
        new ModuleFederationPlugin({
          name: 'avsEditor',
          filename: 'remoteEntry.js',
          exposes: { './routes': './src/routes.tsx' },
          shared,
          manifest: true,
          dts: false,
          // Browser only: leave the Node script loader out of the federation runtime.
          experiments: { optimization: { target: 'web' } },
        }),
      ],
    },
    argv,
  );
