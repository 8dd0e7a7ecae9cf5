// Writes the standard package.json / tsconfig / jest config of a Node (server-side) project.
// Usage: node tools/new-node-package.mjs <dir> <@portal/name> [internal deps...] [--app]
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
const args = process.argv.slice(2);
const app = args.includes('--app');
const [dir, name, ...deps] = args.filter((a) => a !== '--app');
const root = relative(dir, '.') || '.';
mkdirSync(join(dir, 'src'), { recursive: true });
const pkg = {
  name,
  version: '0.1.0',
  private: true,
  main: 'dist/index.js',
  types: 'src/index.ts',
  exports: {
    '.': { source: './src/index.ts', types: './src/index.ts', default: './dist/index.js' },
    './package.json': './package.json',
  },
  scripts: {
    build: `swc src -d dist --strip-leading-paths --config-file ${root}/tools/node.swcrc --ignore "**/*.test.ts"`,
    typecheck: 'tsc -p tsconfig.json',
    lint: 'eslint src',
    test: 'jest',
    ...(app ? { serve: 'node dist/main.js' } : {}),
  },
  dependencies: Object.fromEntries(deps.map((d) => [d, '*'])),
};
if (app) {
  delete pkg.exports;
  delete pkg.types;
  pkg.main = 'dist/main.js';
}
writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
writeFileSync(
  join(dir, 'tsconfig.json'),
  JSON.stringify({ extends: `${root}/tsconfig.base.json`, include: ['src/**/*'] }, null, 2) + '\n',
);
if (!existsSync(join(dir, 'jest.config.cjs')))
  writeFileSync(
    join(dir, 'jest.config.cjs'),
    `module.exports = { ...require('${root}/tools/jest.preset.cjs'), testEnvironment: 'node', displayName: '${name}' };\n`,
  );
// In the workspace's style from the start (`npm test` checks formatting).
spawnSync(
  process.execPath,
  [
    'node_modules/.bin/prettier',
    '--write',
    '--log-level=warn',
    join(dir, 'package.json'),
    join(dir, 'tsconfig.json'),
    join(dir, 'jest.config.cjs'),
  ],
  { stdio: 'inherit' },
);
