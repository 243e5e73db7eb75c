import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { main } from '@adec/cli';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `adec <argv>` in process, capturing both streams, as a user in `cwd` would. */
export async function runCli(argv: readonly string[], cwd: string, options: { tty?: boolean } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    cwd,
    stdout: { write: (text: string) => (stdout += text), isTTY: options.tty ?? false },
    stderr: { write: (text: string) => (stderr += text), isTTY: options.tty ?? false },
  });
  return { code, stdout, stderr };
}

/** A temporary directory holding the given files (path → text). */
export function tempWorkspace(files: Readonly<Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), 'adec-cli-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

export const SMALL_WORLD = `world {
  org     "acme"
  domain  "hr.benefits"
  version "1.0.0"
}

context {
  supplied relationship:  "child" | "spouse"
  supplied dependent_age: int
}

action add_dependent {
  rule child_over_age {
    outcome  RED
    severity t1
    when     relationship == "child" and dependent_age >= 26
    reason   "Children aged {dependent_age} are not eligible"
  }
}
`;
