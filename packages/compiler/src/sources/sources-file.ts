/**
 * `sources.json`: the world's source files carried in its bundle, so that whoever approves the
 * bundle can rebuild it and see that bundle.js is what this compiler makes of that source
 * (ARCHITECTURE.md "Sign and approve"). The manifest's `source_hash` names its content, and the
 * manifest is what CI signs, so a bundle's sources cannot be swapped without breaking that
 * signature; the runtime never reads this file.
 */
import { sourceHash } from '../manifest/hash.js';
import { compareSourcePaths } from './load-world.js';
import type { WorldSources } from './world-sources.js';

export const SOURCES_FORMAT = 'adec.sources.v1';

/** One file of sources.json: its path relative to the world directory, and its text. */
export interface SourcesFileEntry {
  readonly path: string;
  readonly text: string;
}

export interface SourcesFile {
  readonly format: typeof SOURCES_FORMAT;
  /** `sha256:<hex>`, the manifest's `source_hash` of the same files. */
  readonly source_hash: string;
  readonly files: readonly SourcesFileEntry[];
}

/** The sources of a world as sources.json holds them, paths relative to the world directory. */
export function sourcesFile(files: readonly SourcesFileEntry[]): SourcesFile {
  return { format: SOURCES_FORMAT, source_hash: `sha256:${sourceHash(files)}`, files: files.map(({ path, text }) => ({ path, text })) };
}

/** Two-space JSON and a final newline, members in the order above: the same files give the same bytes. */
export function serializeSourcesFile(file: SourcesFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}

export type SourcesRead =
  | { readonly ok: true; readonly sourceHash: string; readonly files: readonly SourcesFileEntry[] }
  | { readonly ok: false; readonly problem: string };

/**
 * Reads sources.json strictly: its format, every file a relative `.adec` path with text, paths
 * unique and in the order a build reads them (`loadWorld`), and `source_hash` the hash of
 * exactly these files. A problem is the end of a sentence that starts with the file's name.
 */
export function parseSourcesFile(text: string): SourcesRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `is not valid JSON: ${(error as Error).message}` };
  }
  if (!isObject(value)) return { ok: false, problem: 'is not a JSON object' };
  if (value['format'] !== SOURCES_FORMAT) return { ok: false, problem: `has no \`format\` \`${SOURCES_FORMAT}\`` };
  const files = value['files'];
  if (!Array.isArray(files) || files.length === 0) return { ok: false, problem: 'has no `files` list of at least one file' };
  const entries: SourcesFileEntry[] = [];
  for (const [index, entry] of files.entries()) {
    const problem = entryProblem(entry, entries.at(-1));
    if (problem !== undefined) return { ok: false, problem: `\`files[${index}]\` ${problem}` };
    entries.push(entry as SourcesFileEntry);
  }
  const stated = value['source_hash'];
  const actual = `sha256:${sourceHash(entries)}`;
  if (stated !== actual) return { ok: false, problem: `has \`source_hash\` ${JSON.stringify(stated)}, but its files hash to \`${actual}\`` };
  return { ok: true, sourceHash: actual, files: entries };
}

/** The sources as a build reads them, under the display directory `root` (diagnostics name it). */
export function worldSourcesOf(files: readonly SourcesFileEntry[], root: string): WorldSources {
  return { root, files: files.map((file) => ({ path: `${root}/${file.path}`, text: file.text })) };
}

function entryProblem(entry: unknown, previous: SourcesFileEntry | undefined): string | undefined {
  if (!isObject(entry) || typeof entry['path'] !== 'string' || typeof entry['text'] !== 'string') return 'is not a `{ "path", "text" }` object of strings';
  const path = entry['path'];
  const segments = path.split('/');
  if (!path.endsWith('.adec') || segments.some((segment) => segment === '' || segment === '.' || segment === '..') || path.includes('\\')) {
    return `has path ${JSON.stringify(path)}: expected a relative path of a .adec file, \`/\` between names, no \`.\` or \`..\``;
  }
  if (previous !== undefined && compareSourcePaths(previous.path, path) >= 0) return `has path ${JSON.stringify(path)}, not after ${JSON.stringify(previous.path)}: paths are unique and sorted`;
  return undefined;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
