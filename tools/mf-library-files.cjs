// Which files of @portal/contracts and @portal/domain the shell and a remote would both bundle: those are
// shared through Module Federation by file (tools/mf-shared.cjs, `sharedLibraryFiles`), so a page loads
// each of them once, from the shell.
//
// Why by file and only these: the two libraries are plain schemas, constants and functions imported
// through their barrels (`export * from './requests'`), and each container bundles only the files it uses.
// A file the shell and a remote both use came twice on a page (bench/screens.mjs, "modules shipped
// twice"). Sharing a file makes it a module whose exports webpack cannot know at build time, so a barrel
// that re-exports it can no longer tell which file gives a name: every shared file becomes a candidate for
// every import through the barrel. Sharing only the files the shell bundles anyway keeps that to files the
// shell has already loaded or provides; sharing every file of the libraries put 52 more shared modules in
// the shell's start-up and 4–7 more script requests on each screen (docs/decisions.md).
//
// Read from the sources when a build starts: the names each web project imports from the two barrels
// (value imports; `import type` and `type X` are erased), the file that declares each name (TypeScript's
// checker, through the `export *` chains), then those files' own relative imports. The shell's reach
// includes web-kit, which the shell provides to every remote.
const fs = require('node:fs');
const path = require('node:path');

const workspaceRoot = path.resolve(__dirname, '..');
const LIBRARIES = {
  '@portal/contracts': path.join(workspaceRoot, 'libs/contracts/src'),
  '@portal/domain': path.join(workspaceRoot, 'libs/domain/src'),
};
const SOURCE_FILE = /\.(ts|tsx|js|jsx|mjs)$/;
const TEST_FILE = /\.(test|spec)\.[jt]sx?$|[\\/](testing|__tests__|__mocks__)[\\/]|[\\/]testing\.ts$/;

/** The web sources under `folder` (this file and tools/mf-shared.cjs read imports from them), tests left out. */
function webSourceFiles(folder) {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : webSourceFiles(full);
    return SOURCE_FILE.test(entry.name) && !TEST_FILE.test(full) ? [full] : [];
  });
}

/** Each value name a barrel exports -> the file that declares it (TypeScript's checker). */
function barrelIndex() {
  const ts = require('typescript');
  const barrels = Object.values(LIBRARIES).map((folder) => path.join(folder, 'index.ts'));
  const program = ts.createProgram(barrels, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    baseUrl: workspaceRoot,
    paths: Object.fromEntries(
      Object.entries(LIBRARIES).map(([name, folder]) => [name, [path.join(folder, 'index.ts')]]),
    ),
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const index = {};
  for (const [name, folder] of Object.entries(LIBRARIES)) {
    const source = program.getSourceFile(path.join(folder, 'index.ts'));
    const module = source && checker.getSymbolAtLocation(source);
    const names = new Map();
    for (const symbol of module ? checker.getExportsOfModule(module) : []) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declaration = target.declarations?.[0];
      if (declaration && target.flags & ts.SymbolFlags.Value)
        names.set(symbol.name, path.normalize(declaration.getSourceFile().fileName));
    }
    index[name] = names;
  }
  return index;
}

const NAMED_IMPORT = /\bimport\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
const RELATIVE_IMPORT = /\b(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

/** The names a file imports as values from `library` (a barrel). */
function valueNames(text, library) {
  const names = [];
  for (const [, typeOnly, list, from] of text.matchAll(NAMED_IMPORT)) {
    if (from !== library || typeOnly) continue;
    for (const part of list.split(',')) {
      const specifier = part.trim();
      if (!specifier || specifier.startsWith('type ')) continue;
      names.push(specifier.split(/\s+as\s+/)[0].trim());
    }
  }
  return names;
}

function resolveRelative(from, request) {
  const base = path.resolve(path.dirname(from), request);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return null;
}

/** The library files `folders`' sources reach: named value imports, then the files' own value imports. */
function reachedLibraryFiles(folders, index) {
  const reached = new Set();
  const pending = [];
  const add = (file) => {
    if (file && !reached.has(file)) {
      reached.add(file);
      pending.push(file);
    }
  };
  const fromBarrels = (text) => {
    for (const [library, names] of Object.entries(index))
      for (const name of valueNames(text, library)) add(names.get(name));
  };
  for (const file of folders.flatMap(webSourceFiles)) fromBarrels(fs.readFileSync(file, 'utf8'));
  while (pending.length) {
    const file = pending.pop();
    const text = fs.readFileSync(file, 'utf8');
    fromBarrels(text);
    for (const [, typeOnly, request] of text.matchAll(RELATIVE_IMPORT))
      if (!typeOnly) add(resolveRelative(file, request));
  }
  return reached;
}

let cached;
/**
 * The library files both the shell (with web-kit) and at least one remote reach, absolute paths, sorted.
 * Computed once per process (a build reads it for its one configuration).
 */
function libraryFilesSharedWithShell() {
  if (cached) return cached;
  const index = barrelIndex();
  const shell = reachedLibraryFiles(
    [path.join(workspaceRoot, 'shell/src'), path.join(workspaceRoot, 'libs/web-kit/src')],
    index,
  );
  const remotes = new Set(
    fs
      .readdirSync(workspaceRoot)
      .filter((name) => name.startsWith('mf-'))
      .flatMap((name) => [...reachedLibraryFiles([path.join(workspaceRoot, name, 'src')], index)]),
  );
  cached = [...shell].filter((file) => remotes.has(file)).sort();
  return cached;
}

module.exports = {
  libraryFilesSharedWithShell,
  barrelIndex,
  reachedLibraryFiles,
  valueNames,
  webSourceFiles,
  LIBRARIES,
  workspaceRoot,
};

if (require.main === module) {
  for (const file of libraryFilesSharedWithShell()) console.log(path.relative(workspaceRoot, file));
}
