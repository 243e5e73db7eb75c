/** The process surface a command may touch, injected so tests run commands in process. */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly cwd: string;
  /**
   * Standard input as bytes, for commands that accept `-` as a file (absent in tests that don't
   * need it): all of it, or, once it holds more than `maxBytes`, the bytes read so far (more than
   * `maxBytes`: the caller refuses them) without reading the rest.
   */
  readonly readStdin?: (maxBytes: number) => Promise<Uint8Array>;
}

export interface OutputStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** Exit codes of the CLI contract (ARCHITECTURE.md "CLI contract"). */
export const EXIT = {
  ok: 0,
  /** The input has errors: diagnostics, failed verification, failed tests. */
  inputErrors: 1,
  /** The command line itself is wrong. */
  usage: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
