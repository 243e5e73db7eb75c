/**
 * The adec language server: the LSP wiring of the features. Each open `.adec` file belongs
 * to a world (workspace/world-locator.ts); a change re-checks that world with the compiler,
 * debounced, and publishes the diagnostics of all its files. Hover, go to definition, find
 * references and completion use the world's symbol index, built from the text the editor
 * shows at the moment of the request; formatting is `adec fmt` on that text.
 *
 * Nothing an author types may stop the server: every handler answers (null or an empty
 * list) when anything goes wrong, and a compiler failure becomes an ADEC9001 diagnostic.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkSources } from '@adec/compiler';
import { diagnostic as adecDiagnostic, type Diagnostic as AdecDiagnostic } from '@adec/diagnostics';
import {
  DiagnosticSeverity,
  DidChangeWatchedFilesNotification,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type Diagnostic,
  type InitializeResult,
  type Location,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { completions } from './features/completion.js';
import { DIAGNOSTIC_SOURCE, toLspDiagnostic } from './features/diagnostics.js';
import { formattingEdits } from './features/formatting.js';
import { hover } from './features/hover.js';
import { spanRange } from './features/positions.js';
import { MAX_FILE_BYTES } from './workspace/world-files.js';
import { findWorldRoot, isInside } from './workspace/world-locator.js';
import { filePath, WorldSession, type WorldSnapshot } from './workspace/world-session.js';

export interface ServerOptions {
  /** Quiet time after the last change before the world is checked again. */
  readonly debounceMs?: number;
  /** Where the pages explaining each diagnostic code are (`ADEC3004.md`); by default the checkout's docs/diagnostics/. */
  readonly diagnosticDocs?: string;
}

/** Long enough to wait for a pause in typing, short enough to feel immediate. */
export const DEFAULT_DEBOUNCE_MS = 200;

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const documents = new TextDocuments(TextDocument);
  const sessions = new Map<string, WorldSession>();
  const sessionOf = new Map<string, Promise<WorldSession | undefined>>();
  let folders: string[] = [];
  let debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  let relatedInformation = false;
  let watchFiles = false;
  const codePage = diagnosticPages(options.diagnosticDocs ?? fileURLToPath(new URL('../../../docs/diagnostics/', import.meta.url)));

  const log = (message: string, error?: unknown) =>
    connection.console.error(`${message}${error === undefined ? '' : `: ${describeFailure(error)}`}`);

  /** Runs a handler; a failure is logged and answered with `fallback`. */
  const guard = async <T>(name: string, fallback: T, run: () => Promise<T> | T): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      log(`${name} failed`, error);
      return fallback;
    }
  };

  connection.onInitialize((params): InitializeResult => {
    const fromFolders = (params.workspaceFolders ?? []).map((f) => filePath(f.uri)).filter((p) => p !== undefined);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- a client that predates workspace folders sends only rootUri
    const fromRoot = params.rootUri ? filePath(params.rootUri) : undefined;
    folders = fromFolders.length > 0 ? fromFolders : fromRoot !== undefined ? [fromRoot] : [];
    const initOptions = params.initializationOptions as { debounceMs?: unknown } | undefined;
    if (typeof initOptions?.debounceMs === 'number' && initOptions.debounceMs >= 0) debounceMs = initOptions.debounceMs;
    relatedInformation = params.capabilities.textDocument?.publishDiagnostics?.relatedInformation === true;
    watchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        completionProvider: { triggerCharacters: ['.', '"', "'"] },
        documentFormattingProvider: true,
      },
      serverInfo: { name: 'adec-language-server' },
    };
  });

  connection.onInitialized(() => {
    if (watchFiles) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.adec' }] }).catch((error: unknown) => log('watching .adec files failed', error));
    }
  });

  // ── Worlds ────────────────────────────────────────────────────────────────

  const sessionFor = (uri: string): Promise<WorldSession | undefined> => {
    let pending = sessionOf.get(uri);
    if (pending === undefined) {
      pending = locate(uri).catch((error: unknown) => {
        log(`finding the world of ${uri} failed`, error);
        return undefined;
      });
      sessionOf.set(uri, pending);
    }
    return pending;
  };

  const locate = async (uri: string): Promise<WorldSession> => {
    const path = filePath(uri);
    if (path === undefined) return session(uri, () => WorldSession.forDocument(uri));
    const root = await findWorldRoot(path, folders, (p) => documents.all().find((d) => filePath(d.uri) === p)?.getText());
    return session(root, () => WorldSession.forDirectory(root, folders));
  };

  const session = (key: string, create: () => WorldSession): WorldSession => {
    let found = sessions.get(key);
    if (found === undefined || found.disposed) {
      found = create();
      sessions.set(key, found);
    }
    return found;
  };

  const schedule = (world: WorldSession, delay = debounceMs): void => {
    if (world.disposed) return;
    if (world.timer !== undefined) clearTimeout(world.timer);
    world.timer = setTimeout(() => {
      world.timer = undefined;
      void check(world).catch((error: unknown) => log(`checking ${world.root} failed`, error));
    }, delay);
  };

  const check = async (world: WorldSession): Promise<void> => {
    const generation = ++world.generation;
    await world.reloadDisk();
    if (generation !== world.generation || world.disposed) return;
    const snapshot = world.snapshot(documents);
    let diagnostics: readonly AdecDiagnostic[];
    try {
      const result = checkSources(snapshot.sources);
      world.remember(snapshot.sources, result.files);
      diagnostics = result.diagnostics;
    } catch (error) {
      // A bug in adec, never the author's mistake: say so where the author is looking.
      log(`the compiler failed on ${world.root}`, error);
      const problem = `the compiler failed: ${error instanceof Error ? error.message : String(error)}`;
      const point = { offset: 0, endOffset: 0, line: 1, column: 1, endLine: 1, endColumn: 1 };
      diagnostics = [...snapshot.versions.keys()].map((uri) => adecDiagnostic('ADEC9001', { ...point, file: world.displayPathOf(uri) }, { problem }));
    }
    publish(world, snapshot, diagnostics);
  };

  const publish = (world: WorldSession, snapshot: WorldSnapshot, diagnostics: readonly AdecDiagnostic[]): void => {
    const byUri = new Map<string, Diagnostic[]>([...snapshot.uris.values()].map((uri) => [uri, []]));
    const uriOf = (file: string) => snapshot.uris.get(file);
    for (const found of diagnostics) {
      const uri = uriOf(found.span.file);
      if (uri !== undefined) byUri.get(uri)?.push(toLspDiagnostic(found, { uriOf, relatedInformation, codePage }));
    }
    for (const [file, size] of snapshot.tooLarge) {
      const uri = uriOf(file);
      if (uri === undefined) continue;
      byUri.get(uri)?.push({
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: DiagnosticSeverity.Warning,
        source: DIAGNOSTIC_SOURCE,
        message: `this file is not checked as you type: it has ${size} bytes, more than ${MAX_FILE_BYTES}; run \`adec check\``,
      });
    }
    for (const uri of world.published) if (!byUri.has(uri)) byUri.set(uri, []);
    world.published = new Set([...byUri].filter(([, list]) => list.length > 0).map(([uri]) => uri));
    for (const [uri, list] of byUri) {
      const version = snapshot.versions.get(uri);
      void connection.sendDiagnostics({ uri, diagnostics: list, ...(version !== undefined && { version }) });
    }
  };

  const close = (world: WorldSession): void => {
    world.dispose();
    sessions.delete(world.root);
    for (const uri of world.published) void connection.sendDiagnostics({ uri, diagnostics: [] });
    world.published.clear();
  };

  // ── Documents ─────────────────────────────────────────────────────────────

  // TextDocuments reports an opened document as changed too; the open already checks it.
  const justOpened = new Set<string>();

  documents.onDidOpen((event) => {
    justOpened.add(event.document.uri);
    void guard('didOpen', undefined, async () => {
      const world = await sessionFor(event.document.uri);
      if (world !== undefined) schedule(world, 0);
    });
  });

  documents.onDidChangeContent((event) => {
    if (justOpened.delete(event.document.uri)) return;
    void guard('didChange', undefined, async () => {
      const world = await sessionFor(event.document.uri);
      if (world !== undefined) schedule(world);
    });
  });

  documents.onDidSave((event) => {
    void guard('didSave', undefined, async () => {
      const world = await sessionFor(event.document.uri);
      if (world !== undefined) schedule(world);
    });
  });

  documents.onDidClose((event) => {
    void guard('didClose', undefined, async () => {
      const world = await sessionOf.get(event.document.uri);
      sessionOf.delete(event.document.uri);
      if (world === undefined) return;
      const stillOpen = documents.all().some((d) => d.uri !== event.document.uri && world.includes(d.uri) && sessionOf.has(d.uri));
      if (stillOpen) schedule(world);
      else close(world);
    });
  });

  connection.onDidChangeWatchedFiles((params) => {
    void guard('didChangeWatchedFiles', undefined, () => {
      for (const world of sessions.values()) {
        const affected = params.changes.some((change) => {
          const path = filePath(change.uri);
          return path !== undefined && world.includes(change.uri) && isInside(path, world.root);
        });
        if (affected) schedule(world);
      }
    });
  });

  // ── Features ──────────────────────────────────────────────────────────────

  /** The world index and the position of a request in it. */
  const at = async (uri: string, position: { line: number; character: number }) => {
    const document = documents.get(uri);
    const world = document === undefined ? undefined : await sessionFor(uri);
    if (document === undefined || world === undefined) return undefined;
    const { index, snapshot } = await world.index(documents);
    return { document, world, index, snapshot, file: world.displayPathOf(uri), offset: document.offsetAt(position) };
  };

  const locationOf = (snapshot: WorldSnapshot, span: { file: string } & Parameters<typeof spanRange>[0]): Location | undefined => {
    const uri = snapshot.uris.get(span.file);
    return uri === undefined ? undefined : { uri, range: spanRange(span) };
  };

  connection.onHover((params) =>
    guard('hover', null, async () => {
      const found = await at(params.textDocument.uri, params.position);
      return found === undefined ? null : hover(found.index, found.file, found.offset);
    }),
  );

  connection.onDefinition((params) =>
    guard('definition', null, async () => {
      const found = await at(params.textDocument.uri, params.position);
      const occurrence = found?.index.occurrenceAt(found.file, found.offset);
      if (found === undefined || occurrence === undefined) return null;
      const locations = occurrence.targets.flatMap((t) => (t.span === undefined ? [] : [locationOf(found.snapshot, t.span)])).filter((l) => l !== undefined);
      return locations.length === 0 ? null : locations;
    }),
  );

  connection.onReferences((params) =>
    guard('references', null, async () => {
      const found = await at(params.textDocument.uri, params.position);
      const occurrence = found?.index.occurrenceAt(found.file, found.offset);
      if (found === undefined || occurrence === undefined) return null;
      const occurrences = occurrence.targets.flatMap((t) => found.index.occurrencesOf(t));
      return occurrences
        .filter((o) => params.context.includeDeclaration || !o.isDeclaration)
        .map((o) => locationOf(found.snapshot, o.span))
        .filter((l) => l !== undefined);
    }),
  );

  connection.onCompletion((params) =>
    guard('completion', [], async () => {
      const document = documents.get(params.textDocument.uri);
      if (document === undefined) return [];
      const world = await sessionFor(params.textDocument.uri);
      const index = world === undefined ? undefined : (await world.index(documents)).index;
      const offset = document.offsetAt(params.position);
      return completions({
        text: document.getText(),
        offset,
        index,
        rangeBefore: (length) => ({ start: document.positionAt(offset - length), end: params.position }),
      });
    }),
  );

  connection.onDocumentFormatting((params) =>
    guard('formatting', [], async () => {
      const document = documents.get(params.textDocument.uri);
      return document === undefined ? [] : formattingEdits(document, filePath(params.textDocument.uri) ?? params.textDocument.uri);
    }),
  );

  connection.onShutdown(() => {
    for (const world of sessions.values()) world.dispose();
  });

  documents.listen(connection);
  connection.listen();
}

/** The `file:` URL of each code's page in `dir`, for the codes that have one. */
function diagnosticPages(dir: string): (code: string) => string | undefined {
  const known = new Map<string, string | undefined>();
  return (code) => {
    if (!known.has(code)) {
      const page = join(dir, `${code}.md`);
      known.set(code, /^ADEC\d{4}$/.test(code) && existsSync(page) ? pathToFileURL(page).href : undefined);
    }
    return known.get(code);
  };
}

/** A thrown value as the log shows it: an error's stack, anything else as text. */
function describeFailure(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
