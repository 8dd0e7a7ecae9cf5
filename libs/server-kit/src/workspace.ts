import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The workspace root (the folder holding nx.json), found upwards from `start`; falls back to cwd. */
export function findWorkspaceRoot(start: string = __dirname): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}
