/**
 * The generated module as a TypeScript program, for its own checks (pipeline step 3).
 *
 * The checks run on TypeScript 7, the native compiler, through its synchronous API: a `tsgo`
 * process, started on first use and kept for the life of this process, holds one project in
 * an in-memory file system whose only source file is the module being checked. Each call
 * replaces that file's text and takes a new snapshot.
 *
 * Why not TypeScript 6, which ts-morph bundles for generation: its checker is JavaScript, and in
 * the one cold process of a CI build it ran several times slower than when warm; at 1,000
 * rules it was two thirds of `adec build` (bench/RESULTS.md). The native checker needs no
 * warm-up. Its API is marked unstable, so the version is pinned exactly in package.json.
 *
 * Options match the sandbox: strict, `noUncheckedIndexedAccess`, the ES2022 library only (no
 * DOM, no @types), so a generated reference to a host API fails the check.
 */
import { API, type Diagnostic, type Snapshot } from 'typescript-native/unstable/sync';
import type { SourceFile } from 'typescript-native/unstable/ast';

const ROOT = '/adec';
const CONFIG_FILE = `${ROOT}/tsconfig.json`;
export const MODULE_FILE = `${ROOT}/module.ts`;

const CONFIG = JSON.stringify({
  compilerOptions: {
    strict: true,
    noUncheckedIndexedAccess: true,
    noImplicitReturns: true,
    noFallthroughCasesInSwitch: true,
    target: 'es2022',
    module: 'es2022',
    lib: ['es2022'],
    types: [],
    noEmit: true,
    skipLibCheck: true,
  },
  files: ['module.ts'],
});

export interface ModuleProgram {
  /** The module's syntax tree, fetched from the checker on first use. */
  readonly sourceFile: SourceFile;
  /** Option, global, syntax and type errors, in that order. */
  diagnostics(): readonly Diagnostic[];
}

let session: CheckerSession | undefined;

/**
 * The program of `source`. It stays valid until the next call: a call takes a new snapshot
 * and releases the previous one.
 */
export function moduleProgram(source: string): ModuleProgram {
  const current = (session ??= new CheckerSession());
  return checked(() => current.open(source));
}

/** Runs a request to the checker; a checker that failed (or died) is not reused: the next call starts a new one. */
function checked<T>(request: () => T): T {
  try {
    return request();
  } catch (error) {
    session = undefined;
    throw error;
  }
}

class CheckerSession {
  readonly #files = new Map([[CONFIG_FILE, CONFIG], [MODULE_FILE, '']]);
  readonly #api = new API({ fs: this.#fileSystem(), cwd: ROOT });
  #snapshot: Snapshot | undefined;

  open(source: string): ModuleProgram {
    this.#files.set(MODULE_FILE, source);
    const previous = this.#snapshot;
    this.#snapshot =
      previous === undefined
        ? this.#api.updateSnapshot({ openProjects: [CONFIG_FILE] })
        : this.#api.updateSnapshot({ fileChanges: { changed: [MODULE_FILE] } });
    previous?.dispose();
    const program = this.#snapshot.getProject(CONFIG_FILE)?.program;
    if (program === undefined) throw new Error('the TypeScript checker did not open the module project');
    let sourceFile: SourceFile | undefined;
    return {
      get sourceFile() {
        sourceFile ??= checked(() => program.getSourceFile(MODULE_FILE));
        if (sourceFile === undefined) throw new Error('the TypeScript checker did not load the module');
        return sourceFile;
      },
      diagnostics: () =>
        checked(() => [
          ...program.getProgramDiagnostics(),
          ...program.getGlobalDiagnostics(),
          ...program.getSyntacticDiagnostics(MODULE_FILE),
          ...program.getSemanticDiagnostics(MODULE_FILE),
        ]),
    };
  }

  /**
   * The project's files are served from memory; TypeScript's own library files come from its
   * package on disk; no other file exists, so nothing on the machine (a stray package.json,
   * @types) can change what the module means.
   */
  #fileSystem() {
    const inside = (path: string) => path === ROOT || path.startsWith(`${ROOT}/`);
    const isLibrary = (path: string) => /\/lib\.[\w.]+\.d\.ts$/.test(path);
    return {
      readFile: (path: string) => (inside(path) ? (this.#files.get(path) ?? null) : isLibrary(path) ? undefined : null),
      fileExists: (path: string) => (inside(path) ? this.#files.has(path) : isLibrary(path) ? undefined : false),
      directoryExists: (path: string) => (inside(path) ? path === ROOT : undefined),
      getAccessibleEntries: (path: string) =>
        path === ROOT ? { files: [...this.#files.keys()].map((file) => file.slice(ROOT.length + 1)), directories: [] } : undefined,
      realpath: (path: string) => (inside(path) ? path : undefined),
    };
  }
}
