/**
 * Vitest global setup: refuses to run when a package's compiled `dist/` is older than its
 * sources. Tests import the TypeScript sources, but some code under test runs compiled: the
 * sandbox process (`runtime/dist/sandbox/sandbox-process.js`), the SQLite writer thread, the
 * `adec` launcher and the language server that tests start as processes. A stale `dist/` would
 * test yesterday's code there while the rest tests today's; `npm test` builds first, so this
 * only stops a run started by hand after an edit.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The newest modification time of the files under `dir`, in ms. */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Each package whose sources changed after its last build, as a sentence. */
export function staleBuilds(root = ROOT): string[] {
  const packages = [...readdirSync(join(root, 'packages')).map((name) => join('packages', name)), 'grammar'];
  const stale: string[] = [];
  for (const pkg of packages) {
    const sources = join(root, pkg, 'src');
    if (!existsSync(sources)) continue;
    const built = join(root, pkg, 'dist', '.tsbuildinfo');
    if (!existsSync(built)) stale.push(`${pkg} has never been built`);
    else if (newestUnder(sources) > statSync(built).mtimeMs) stale.push(`${pkg}/src changed after ${pkg}/dist was built`);
  }
  return stale;
}

export default function setup(): void {
  const stale = staleBuilds();
  if (stale.length > 0) throw new Error(`dist/ is older than its sources (${stale.join('; ')}): run \`npm run build\` (tsc -b) first, or \`npm test\`, which builds`);
}
