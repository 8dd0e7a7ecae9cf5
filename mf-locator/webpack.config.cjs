// The locator remote (request tool, address validation, locate, mapping service): no entry of its own; it
// exposes its routes to the shell, which loads them at run time from /remotes.json (shell/README.md).
const { createRemoteConfig } = require('../tools/webpack.common.cjs');

module.exports = (_env, argv) => createRemoteConfig({ name: 'locator', projectDir: __dirname }, argv);
