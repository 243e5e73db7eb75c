/**
 * One world the editor has files of open: its files on disk, overridden by the open
 * documents, checked as a whole (a name in one file is declared in another), with the
 * diagnostics of every file published together. Files are named in diagnostics by a path
 * relative to the workspace folder (`benefits/change_plan.adec`), as `adec check` names
 * them relative to where it runs.
 */
import { basename, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseSource, type SourceFile } from '@adec/grammar';
import type { WorldSources } from '@adec/compiler';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { buildWorldIndex, type WorldIndex } from '../symbols/world-index.js';
import { listWorldFiles, MAX_FILE_BYTES, readWorldFile, relativePath, byteOrder, type FileContent } from './world-files.js';
import { isInside } from './world-locator.js';

export interface OpenDocuments {
  all(): TextDocument[];
  get(uri: string): TextDocument | undefined;
}

/** What one check saw: the sources, and how their paths map back to documents. */
export interface WorldSnapshot {
  readonly sources: WorldSources;
  /** Display path → URI, for every file of the world. */
  readonly uris: ReadonlyMap<string, string>;
  /** URI → version of the open documents the sources include. */
  readonly versions: ReadonlyMap<string, number>;
  /** Files left out because they are larger than MAX_FILE_BYTES, with their sizes. */
  readonly tooLarge: ReadonlyMap<string, number>;
}

export class WorldSession {
  /** Bumped by every check that starts; a check publishes only if no newer one started. */
  generation = 0;
  timer: NodeJS.Timeout | undefined;
  disposed = false;
  /** The URIs this world last published diagnostics for. */
  published = new Set<string>();

  private diskFiles: readonly string[] = [];
  private disk = new Map<string, FileContent>();
  private diskLoaded: Promise<void> | undefined;
  private readonly parsed = new Map<string, { readonly text: string; readonly file: SourceFile }>();
  private cachedIndex: { readonly key: string; readonly index: WorldIndex } | undefined;

  /**
   * @param root the world directory, or the URI of a document that is not a file
   * @param displayRoot how diagnostics name the directory (`benefits`)
   */
  constructor(
    readonly root: string,
    private readonly displayRoot: string,
    private readonly isDirectory: boolean,
  ) {}

  static forDirectory(root: string, folders: readonly string[]): WorldSession {
    const folder = folders.filter((f) => isInside(root, f)).sort((a, b) => b.length - a.length)[0];
    const display = folder === undefined || folder === root ? basename(root) || root : relativePath(folder, root);
    return new WorldSession(root, display, true);
  }

  /** A document that is not a file on disk (`untitled:`) is a world of its own. */
  static forDocument(uri: string): WorldSession {
    return new WorldSession(uri, '', false);
  }

  /** Whether the open document `uri` is one of this world's files. */
  includes(uri: string): boolean {
    if (!this.isDirectory) return uri === this.root;
    const path = filePath(uri);
    return path !== undefined && path.endsWith('.adec') && isInside(dirname(path), this.root);
  }

  /** Re-reads the world's files from disk (the next snapshot sees them). */
  reloadDisk(): Promise<void> {
    this.diskLoaded = this.isDirectory ? this.readDisk() : Promise.resolve();
    return this.diskLoaded;
  }

  /** The files on disk as last read, reading them the first time. */
  ensureDisk(): Promise<void> {
    return this.diskLoaded ?? this.reloadDisk();
  }

  private async readDisk(): Promise<void> {
    const files = await listWorldFiles(this.root);
    const contents = await Promise.all(files.map((f) => readWorldFile(f)));
    this.diskFiles = files;
    this.disk = new Map(files.map((f, i) => [f, contents[i]]));
  }

  displayPathOf(uri: string): string {
    if (!this.isDirectory) return untitledName(uri);
    const path = filePath(uri);
    return path === undefined ? uri : `${this.displayRoot}/${relativePath(this.root, path)}`;
  }

  snapshot(documents: OpenDocuments): WorldSnapshot {
    const open = documents.all().filter((d) => this.includes(d.uri));
    const uris = new Map<string, string>();
    const texts = new Map<string, string>();
    const versions = new Map<string, number>();
    const tooLarge = new Map<string, number>();
    if (this.isDirectory) {
      for (const file of this.diskFiles) {
        const uri = pathToFileURL(file).href;
        const display = this.displayPathOf(uri);
        uris.set(display, uri);
        const content = this.disk.get(file);
        if (content !== undefined && 'text' in content) texts.set(display, content.text);
        else if (content !== undefined) tooLarge.set(display, content.tooLarge);
      }
    }
    for (const document of open) {
      const display = this.displayPathOf(document.uri);
      const text = document.getText();
      uris.set(display, document.uri);
      versions.set(document.uri, document.version);
      tooLarge.delete(display);
      texts.delete(display);
      if (text.length > MAX_FILE_BYTES) tooLarge.set(display, text.length);
      else texts.set(display, text);
    }
    const root = this.isDirectory ? this.displayRoot : untitledName(this.root);
    const files = [...texts].sort(([a], [b]) => byteOrder(a, b)).map(([path, text]) => ({ path, text }));
    return { sources: { root, files }, uris, versions, tooLarge };
  }

  /** Keeps the ASTs a check produced, so the index of the same texts does not parse again. */
  remember(sources: WorldSources, files: readonly SourceFile[]): void {
    sources.files.forEach((source, i) => {
      const file = files[i];
      if (file !== undefined) this.parsed.set(source.path, { text: source.text, file });
    });
  }

  /** The symbol index of the world as the editor shows it now. */
  async index(documents: OpenDocuments): Promise<{ index: WorldIndex; snapshot: WorldSnapshot }> {
    await this.ensureDisk();
    const snapshot = this.snapshot(documents);
    const key = snapshot.sources.files.map((f) => `${f.path}\u0000${f.text.length}\u0000${hashText(f.text)}`).join('\u0001');
    if (this.cachedIndex?.key !== key) {
      const files = snapshot.sources.files.map((source) => this.parse(source.path, source.text));
      const texts = new Map(snapshot.sources.files.map((f) => [f.path, f.text]));
      this.cachedIndex = { key, index: buildWorldIndex(files, texts) };
    }
    return { index: this.cachedIndex.index, snapshot };
  }

  private parse(path: string, text: string): SourceFile {
    const known = this.parsed.get(path);
    if (known !== undefined && known.text === text) return known.file;
    const file = parseSource(path, text).file;
    this.parsed.set(path, { text, file });
    return file;
  }

  dispose(): void {
    this.disposed = true;
    this.generation++;
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}

/** The file system path of a `file:` URI. */
export function filePath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

function untitledName(uri: string): string {
  const last = uri.split(/[/:]/).filter((s) => s !== '').pop() ?? 'untitled';
  return last.endsWith('.adec') ? last : `${last}.adec`;
}

/** FNV-1a over the text: a cheap key for "these are the texts the index was built from". */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

