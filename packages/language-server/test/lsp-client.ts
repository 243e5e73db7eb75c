/**
 * A language client for the tests: starts the real `adec-language-server` as a child
 * process and speaks LSP with it over its stdin and stdout, as an editor does.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CompletionRequest,
  createProtocolConnection,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentFormattingRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ReferencesRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type CompletionItem,
  type CompletionList,
  type Hover,
  type Location,
  type Position,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
  type TextEdit,
} from 'vscode-languageserver-protocol/node';

export const SERVER_BIN = fileURLToPath(new URL('../bin/adec-language-server.js', import.meta.url));
const SERVER_DIST = fileURLToPath(new URL('../dist/main.js', import.meta.url));
export const EXAMPLES = fileURLToPath(new URL('../../../examples', import.meta.url));

/** A temporary workspace holding copies of the example worlds (`benefits/`, `fitness/`). */
export function copyExamples(): string {
  const workspace = mkdtempSync(join(tmpdir(), 'adec-lsp-'));
  for (const world of ['benefits', 'fitness']) {
    cpSync(join(EXAMPLES, world), join(workspace, world), { recursive: true, filter: (src) => !src.includes(`${world}/build`) });
  }
  return workspace;
}

export class LspClient {
  private readonly published = new Map<string, PublishDiagnosticsParams[]>();
  private readonly waiters = new Set<() => void>();
  private readonly versions = new Map<string, number>();
  private stderrText = '';
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  private constructor(
    readonly workspace: string,
    private readonly child: ChildProcessWithoutNullStreams,
    readonly connection: ProtocolConnection,
  ) {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (this.stderrText += chunk));
    child.on('exit', (code, signal) => {
      this.exited = { code, signal };
      this.notify();
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const list = this.published.get(params.uri) ?? [];
      list.push(params);
      this.published.set(params.uri, list);
      this.notify();
    });
    // The server's log goes to the client's console; keep it for failure messages.
    connection.onNotification('window/logMessage', (params: { message: string }) => {
      this.stderrText += `${params.message}\n`;
    });
  }

  /** Starts the server, initializes it with `workspace` as its one folder. */
  static async start(workspace: string, options: { debounceMs?: number } = {}): Promise<LspClient> {
    if (!existsSync(SERVER_DIST)) throw new Error(`${SERVER_DIST} is missing: run \`npm run build\` first`);
    const child = spawn(process.execPath, [SERVER_BIN, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    connection.listen();
    const client = new LspClient(workspace, child, connection);
    const uri = pathToFileURL(workspace).href;
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- clients still send it beside workspaceFolders; the server must take both
      rootUri: uri,
      workspaceFolders: [{ uri, name: 'workspace' }],
      initializationOptions: { debounceMs: options.debounceMs ?? 30 },
      capabilities: { textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true } } },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  uri(relative: string): string {
    return pathToFileURL(join(this.workspace, relative)).href;
  }

  async open(relative: string, text: string): Promise<string> {
    const uri = this.uri(relative);
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'adec', version: 1, text } });
    return uri;
  }

  /** Sends one change; returns the document's new version. */
  async change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: changes });
    return version;
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  async definition(uri: string, position: Position): Promise<Location[]> {
    const result = await this.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position });
    if (result === null) return [];
    return (Array.isArray(result) ? result : [result]).map((l) => ('targetUri' in l ? { uri: l.targetUri, range: l.targetSelectionRange } : l));
  }

  references(uri: string, position: Position, includeDeclaration = false): Promise<Location[] | null> {
    return this.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration } });
  }

  /** The edits that format `uri`, with the options an editor sends (the server ignores them). */
  async formatting(uri: string): Promise<TextEdit[]> {
    return (await this.connection.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: { tabSize: 8, insertSpaces: false } })) ?? [];
  }

  async completion(uri: string, position: Position): Promise<CompletionItem[]> {
    const result: CompletionItem[] | CompletionList | null = await this.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
    return result === null ? [] : Array.isArray(result) ? result : result.items;
  }

  /** The diagnostics last published for `uri`. */
  latest(uri: string): PublishDiagnosticsParams | undefined {
    return this.published.get(uri)?.at(-1);
  }

  /**
   * Waits until the latest diagnostics published for `uri` satisfy `test` (and, with
   * `version`, are for that version of the document or a later one).
   */
  async diagnostics(uri: string, test: (params: PublishDiagnosticsParams) => boolean = () => true, options: { version?: number; timeoutMs?: number } = {}): Promise<PublishDiagnosticsParams> {
    const deadline = Date.now() + (options.timeoutMs ?? 20_000);
    for (;;) {
      const latest = this.latest(uri);
      const fresh = latest !== undefined && (options.version === undefined || (latest.version ?? 0) >= options.version);
      if (fresh && test(latest)) return latest;
      if (this.exited !== undefined) throw new Error(`the server exited (${JSON.stringify(this.exited)}):\n${this.stderrText}`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new Error(`no matching diagnostics for ${uri}; last published: ${JSON.stringify(latest, null, 2)}\nserver log:\n${this.stderrText}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(remaining, 500));
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.add(done);
      });
    }
  }

  get alive(): boolean {
    return this.exited === undefined;
  }

  get log(): string {
    return this.stderrText;
  }

  /** shutdown, then exit; resolves with the process's exit code. */
  async stop(): Promise<number | null> {
    if (this.exited === undefined) {
      await this.connection.sendRequest(ShutdownRequest.type);
      await this.connection.sendNotification(ExitNotification.type);
      await new Promise<void>((resolve) => {
        if (this.exited !== undefined) resolve();
        else this.child.once('exit', () => resolve());
        setTimeout(() => {
          this.child.kill('SIGKILL');
          resolve();
        }, 5_000).unref();
      });
    }
    this.connection.dispose();
    return this.exited?.code ?? null;
  }

  private notify(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }
}
