// The services-administration remote: no entry of its own, it exposes its routes to the shell, which
// loads them at run time from /remotes.json (see shell/README.md, "Writing a remote").
const { createRemoteConfig } = require('../tools/webpack.common.cjs');

module.exports = (_env, argv) => createRemoteConfig({ name: 'servicesAdmin', projectDir: __dirname }, argv);
