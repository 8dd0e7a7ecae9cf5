// A remote built only for the end-to-end tests: it proves that a remote found through /remotes.json is
// loaded into the shell's router, shares the shell's singletons (its page reads the shell's store), and
// can be rebuilt alone (the page shows the build stamp from TEST_REMOTE_STAMP).
//   npx webpack -c e2e/test-remote/webpack.config.cjs      (from the workspace root)
const { createWebConfig } = require('../../tools/webpack.common.cjs');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { shared } = require('../../tools/mf-shared.cjs');

module.exports = (_env, argv) =>
  createWebConfig(
    {
      name: 'testRemote',
      projectDir: __dirname,
      define: {
        'process.env.TEST_REMOTE_STAMP': JSON.stringify(process.env.TEST_REMOTE_STAMP ?? 'unstamped'),
      },
      plugins: [
        new ModuleFederationPlugin({
          name: 'testRemote',
          filename: 'remoteEntry.js',
          exposes: { './routes': './src/routes.tsx' },
          shared,
          manifest: true,
          dts: false,
        }),
      ],
    },
    argv,
  );
