// Shared webpack base for the shell and every remote. A project's webpack.config.cjs calls
// createWebConfig() with its name, folder, entry and plugins (ModuleFederationPlugin with the shared
// config from tools/mf-shared.cjs, HtmlWebpackPlugin for the shell).
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { DefinePlugin } = require('webpack');
const CompressionPlugin = require('compression-webpack-plugin');

const workspaceRoot = path.resolve(__dirname, '..');

/** The same SWC settings as `swc` builds of web libraries (tools/web.swcrc); webpack owns source maps. */
const { sourceMaps: _sourceMaps, ...swcOptions } = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'web.swcrc'), 'utf8'),
);

/**
 * `@portal/*` -> the library's TypeScript source, from the paths of tsconfig.base.json: the same mapping
 * tsc and Jest use, so a library resolves to its source whether or not npm has linked it yet.
 */
function workspaceAliases() {
  const { compilerOptions } = JSON.parse(
    fs.readFileSync(path.join(workspaceRoot, 'tsconfig.base.json'), 'utf8'),
  );
  return Object.fromEntries(
    Object.entries(compilerOptions.paths).map(([name, [target]]) => [
      `${name}$`,
      path.join(workspaceRoot, target),
    ]),
  );
}

/**
 * react-router's package exports name only its development build (with dev-time checks and messages);
 * a production bundle takes the production build it also ships. It is shared through federation, so it
 * is never tree-shaken: the difference reaches every page.
 */
function productionBuildAliases(mode) {
  if (mode !== 'production') return {};
  const dist = path.join(path.dirname(require.resolve('react-router/package.json')), 'dist', 'production');
  return {
    'react-router$': path.join(dist, 'index.mjs'),
    'react-router/dom$': path.join(dist, 'dom-export.mjs'),
  };
}

/**
 * Module Federation's runtime packages ship an ES module and a CommonJS build of each file. The shell's
 * generated federation entry imports the ES modules, while the plugin that hands the runtime to the remotes
 * (`provideExternalRuntime`: inject-external-runtime-core-plugin, runtime-tools/runtime-core) `require`s
 * the CommonJS ones, so main.js carried both builds of runtime-core, sdk and error-codes (about 70 KB of
 * the 256 KB it had, parsed before anything else runs). Every import of these packages, `import` or
 * `require`, takes the ES module build: one copy of the runtime.
 */
const FEDERATION_RUNTIME_PACKAGES = ['runtime-core', 'sdk', 'error-codes', 'runtime', 'runtime-tools'];

function federationRuntimeAliases() {
  const aliases = {};
  for (const name of FEDERATION_RUNTIME_PACKAGES) {
    const pkg = `@module-federation/${name}`;
    const dir = path.join(workspaceRoot, 'node_modules', pkg); // package.json is not among their exports
    const { exports } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    for (const [subpath, target] of Object.entries(exports)) {
      const esm = typeof target === 'object' && target.import;
      const file = typeof esm === 'string' ? esm : esm?.default;
      if (!file || subpath.includes('*')) continue;
      aliases[`${pkg}${subpath.slice(1)}$`] = path.join(dir, file);
    }
  }
  return aliases;
}

/**
 * Each script, style and data file also written brotli- (quality 11) and gzip-compressed (level 9) beside
 * itself, `x.js.br` / `x.js.gz`, which the gateway sends as they are (@fastify/static `preCompressed`).
 * Compressing at build time is done once and at the best ratio; compressing per request (the gateway's
 * fallback, brotli quality 4) cost the server CPU on every cold page and sent 10–15 % more bytes. A file
 * that would not shrink below 80 % gets no copy (webpack's plugin default), and is compressed per request
 * when worth it. Production builds only: development rebuilds stay fast.
 */
function precompressionPlugins(mode) {
  if (mode !== 'production') return [];
  const test = /\.(js|mjs|css|json|geojson|svg|txt)$/;
  return [
    new CompressionPlugin({
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      test,
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
    }),
    new CompressionPlugin({
      filename: '[path][base].gz',
      algorithm: 'gzip',
      test,
      compressionOptions: { level: 9 },
    }),
  ];
}

/** Copies a folder of static files (images, icons) into the output as they are. */
class CopyFolderPlugin {
  constructor(folder) {
    this.folder = folder;
  }

  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('CopyFolderPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'CopyFolderPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          compilation.contextDependencies.add(this.folder);
          for (const file of listFiles(this.folder)) {
            const name = path.relative(this.folder, file).split(path.sep).join('/');
            compilation.emitAsset(name, new sources.RawSource(fs.readFileSync(file)));
          }
        },
      );
    });
  }
}

function listFiles(folder) {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/**
 * The host's shared libraries in five chunks instead of one per module. Module Federation gives every
 * shared module (each `@mui/material/X`, each `ol/X`) a chunk of its own; the shell provides them to the
 * whole portal, so a cold page fetched ~35 of them before its first paint (and ~50 more for a map), six at a
 * time. Grouped, a page fetches `framework` (React, MUI, emotion, Redux, the router: what the shell's own
 * code uses, so every page needs it) and, on a map screen, `ol` (what web-kit's map uses).
 *
 * The shell also provides every shared module a remote imports (providedForRemotes): the MUI components
 * and OpenLayers modules only remotes use. One chunk per module, those were still ~45 requests after a
 * map page's own chunks (six at a time, ~1 s of a 2.5 s load on a busy 2-core machine): they are grouped
 * too, as `mui-remotes` (~57 KB compressed, on any remote's screen) and `ol-remotes` (~17 KB, the map
 * tools of some screens). A screen then fetches MUI components it does not draw (7–53 KB more on 24 of the
 * 34 screens), for ~40 fewer requests and a sooner largest paint on 30 of them (bench/README.md "Fewer,
 * larger shared chunks"). The data
 * grid, web-kit's sub-paths and the rest keep webpack's default split: the grid must not weigh on a
 * screen without one. Only the host: a remote's copies of these never load beside the shell's.
 * @param {{ own: Set<import('webpack').Module> }} state
 */
function hostChunkGroups(state) {
  const OPENLAYERS = /[\\/]node_modules[\\/](ol|rbush|quickselect|earcut|color-[a-z]+|pbf|geotiff)[\\/]/;
  /** A named async chunk of the modules matching `pattern` that the shell's own code uses (own) or not. */
  const group = (name, pattern, own, priority) => ({
    test: (module) => {
      const path = module.nameForCondition?.();
      return Boolean(path) && pattern.test(path) && state.own.has(module) === own;
    },
    name,
    chunks: 'async',
    enforce: true,
    priority,
  });
  // The contracts and domain files shared by file (tools/mf-library-files.cjs): all of them load wherever
  // their barrel is used (a shared module's exports are not known at build time), so one chunk, not ~13.
  const { libraryFilesSharedWithShell } = require('./mf-library-files.cjs');
  const libraryFiles = new Set(libraryFilesSharedWithShell());
  return {
    portalLibraries: {
      test: (module) => libraryFiles.has(module.nameForCondition?.()),
      name: 'portal-libraries',
      chunks: 'async',
      enforce: true,
      priority: 25,
    },
    framework: group(
      'framework',
      /[\\/]node_modules[\\/](react|react-dom|scheduler|react-is|@emotion|stylis|hoist-non-react-statics|@mui|@popperjs|react-transition-group|clsx|prop-types|@babel[\\/]runtime|@reduxjs|redux|redux-thunk|react-redux|immer|reselect|use-sync-external-store|react-router|cookie|set-cookie-parser)[\\/]/,
      true,
      20,
    ),
    ol: group('ol', OPENLAYERS, true, 10),
    muiForRemotes: group(
      'mui-remotes',
      /[\\/]node_modules[\\/](@mui[\\/](material|system|utils|styled-engine|private-theming|core-downloads-tracker)|@popperjs|react-transition-group|clsx|prop-types|@babel[\\/]runtime|react-is)[\\/]/,
      false,
      15,
    ),
    olForRemotes: group('ol-remotes', OPENLAYERS, false, 5),
  };
}

/**
 * Finds, when the build is sealed, every module the entries' own code can reach (through static and
 * dynamic imports and shared-module fallbacks), not counting weak imports and what the build only
 * provides to others (federation's provide includes are not entry code).
 */
class OwnModulesPlugin {
  constructor(state) {
    this.state = state;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('OwnModulesPlugin', (compilation) => {
      compilation.hooks.seal.tap('OwnModulesPlugin', () => {
        const { moduleGraph } = compilation;
        const own = new Set();
        const pending = [...compilation.entries.values()].flatMap((entry) =>
          entry.dependencies.map((dependency) => moduleGraph.getModule(dependency)),
        );
        while (pending.length) {
          const module = pending.pop();
          if (!module || own.has(module)) continue;
          own.add(module);
          for (const connection of moduleGraph.getOutgoingConnections(module)) {
            if (connection.module && !connection.weak) pending.push(connection.module);
          }
        }
        this.state.own = own;
      });
    });
  }
}

/**
 * An entry module of the host that makes it provide `requests` (shared modules the remotes import) without
 * loading them: webpack's federation provides a shared module only when the build itself imports it, so
 * the module names each one in a weak import — enough for webpack to build the module and provide it to
 * the share scope, while no chunk of the host loads it. Nothing calls these imports. Written as a file
 * under node_modules/.cache (bare requests resolve from where the importing file is), rewritten only
 * when the list changes; answers its path.
 * @param {string[]} requests
 */
function providedForRemotes(requests) {
  const imports = requests.map(
    (request) =>
      `  ${JSON.stringify(request)}: () => import(/* webpackMode: "weak" */ ${JSON.stringify(request)}),`,
  );
  const source =
    `// Generated by tools/webpack.common.cjs (providedForRemotes) from the workspace's imports.\n` +
    `export const providedForRemotes = {\n${imports.join('\n')}\n};\n`;
  const file = path.join(workspaceRoot, 'node_modules', '.cache', 'portal-shell', 'provided-for-remotes.mjs');
  if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== source) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, source);
  }
  return file;
}

/**
 * @param {object} options
 * @param {string} options.name       unique build name (also output.uniqueName, so the chunk-loading
 *                                    globals of the shell and the remotes never collide)
 * @param {string} options.projectDir the project's folder (webpack context)
 * @param {import('webpack').EntryObject} [options.entry] entry points; a remote may have none
 * @param {string} [options.publicDir] folder copied into the output as it is
 * @param {import('webpack').WebpackPluginInstance[]} [options.plugins]
 * @param {Record<string, string>} [options.define] DefinePlugin values (already JSON-encoded)
 * @param {boolean} [options.host]    the federation host (the shell): its shared libraries in few chunks
 * @param {{ mode?: 'production' | 'development' }} [argv] webpack-cli arguments
 * @returns {import('webpack').Configuration}
 */
function createWebConfig(
  { name, projectDir, entry = {}, publicDir, plugins = [], define, host = false },
  argv = {},
) {
  const mode = argv.mode ?? 'production';
  const ownModules = { own: new Set() };
  return {
    name,
    mode,
    target: 'web',
    context: projectDir,
    entry,
    devtool: 'source-map',
    output: {
      path: path.join(projectDir, 'dist'),
      // Chunks load relative to the script that asks for them: a remote's chunks come from wherever its
      // remoteEntry.js / mf-manifest.json was served, so the gateway can move it without a rebuild.
      publicPath: 'auto',
      uniqueName: name,
      // Entry chunks keep a plain name: they hold the federation runtime, which @module-federation/enhanced
      // 2.9 builds from the chunk's file name before webpack has its hash. Pages refer to them with a
      // cache-busting query instead (HtmlWebpackPlugin `hash`); a remote's entry is its mf-manifest.json.
      filename: '[name].js',
      chunkFilename: '[name].[contenthash:8].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
      // Workspace libraries export their TypeScript under the "source" condition.
      conditionNames: ['source', '...'],
      alias: { ...workspaceAliases(), ...productionBuildAliases(mode), ...federationRuntimeAliases() },
    },
    module: {
      rules: [
        { test: /\.tsx?$/, exclude: /node_modules/, use: { loader: 'swc-loader', options: swcOptions } },
        { test: /\.css$/, use: ['style-loader', 'css-loader'] },
        // contracts and domain only declare things: let webpack drop their modules a bundle does not use
        // (a page that needs API paths then does not carry every TypeBox schema).
        { test: /[\\/]libs[\\/](contracts|domain)[\\/]src[\\/]/, sideEffects: false },
        { test: /\.(png|jpe?g|gif|svg|woff2?)$/, type: 'asset/resource' },
        // Data a page fetches when it needs it (the offline map's country outlines), content-hashed.
        { test: /\.geojson$/, type: 'asset/resource' },
      ],
    },
    optimization: {
      // Keep chunk hashes stable when unrelated modules change (long-term caching).
      moduleIds: 'deterministic',
      chunkIds: 'deterministic',
      ...(host
        ? {
            splitChunks: {
              cacheGroups: hostChunkGroups(ownModules),
              // A module two of the host's chunks need goes into a chunk of its own however small it is:
              // with webpack's defaults (20 kB at least, 30 requests at most) a small module the remotes'
              // components share (MUI's MenuList context, a TypeBox schema) was copied into each of them
              // and a page loading two of them fetched it twice (bench/screens.mjs counts such modules).
              minSize: 0,
              maxAsyncRequests: Infinity,
            },
          }
        : {}),
    },
    // Sizes are checked against the login-page budget instead (see shell/README.md).
    performance: { hints: false },
    plugins: [
      ...(define ? [new DefinePlugin(define)] : []),
      ...(publicDir ? [new CopyFolderPlugin(path.resolve(projectDir, publicDir))] : []),
      ...(host ? [new OwnModulesPlugin(ownModules)] : []),
      ...plugins,
      ...precompressionPlugins(mode),
    ],
    stats: 'errors-warnings',
  };
}

/**
 * A remote's build: no entry of its own; it exposes its route array (`./routes`, src/routes.tsx) under its
 * federation name, with the shared singletons of tools/mf-shared.cjs, for the shell to load at run time
 * from /remotes.json (shell/README.md, "Writing a remote"). Every remote is built this one way.
 * @param {{ name: string, projectDir: string }} options `name` is the federation name /remotes.json uses
 * @param {{ mode?: 'production' | 'development' }} [argv] webpack-cli arguments
 * @returns {import('webpack').Configuration}
 */
function createRemoteConfig({ name, projectDir }, argv) {
  // Required here, not at the top: the shell's build also reads this file and needs neither.
  const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
  const { shared } = require('./mf-shared.cjs');
  return createWebConfig(
    {
      name,
      projectDir,
      plugins: [
        new ModuleFederationPlugin({
          name,
          filename: 'remoteEntry.js',
          exposes: { './routes': './src/routes.tsx' },
          shared,
          manifest: true,
          dts: false,
          // Browser only: leave the Node script loader out of the federation runtime. externalRuntime:
          // use the federation runtime the shell already runs (it provides it, shell/webpack.config.cjs)
          // instead of a copy of it in every remote's entry.
          experiments: { optimization: { target: 'web' }, externalRuntime: true },
        }),
      ],
    },
    argv,
  );
}

module.exports = { createWebConfig, createRemoteConfig, providedForRemotes };
