/**
 * What `adec eval` and `adec select` share: a built bundle, verified as a host verifies it, its
 * module loaded in a sandbox of this process with the command's one JSON input read beside it,
 * used once and disposed. Each command then does what the service's operation does with them
 * (decide, runCycle) — without admission, tenancy, idempotency or audit, which a bundle on
 * disk has no use for. Every problem is a message after `adec <command>:` and exit 1.
 */
import { loadModule, type Isolation, type LoadedModule, type SandboxOptions } from '@adec/runtime';
import { readJsonInput, readVerifiedBundle } from './bundle-input.js';
import { EXIT, type CliIo, type ExitCode } from './io.js';

export interface LocalModuleOptions {
  /** The command's name, as its messages start: `eval`, `select`. */
  readonly command: string;
  readonly bundleDir: string;
  /** A trust configuration: verify signature and approval (else only the bundle's hash). */
  readonly trustPath: string | undefined;
  /** The JSON input: a file or `-` for standard input, the option that named it, what it is. */
  readonly input: { readonly source: string; readonly option: string; readonly what: string };
  readonly isolation: Isolation;
  readonly extensions?: readonly string[];
  /** What the extensions need, prepared while the module loads (runtime module-preparation.ts). */
  readonly prepare?: SandboxOptions['prepare'];
}

/** Writes `adec <command>: message` to standard error; the exit code of bad input. */
export type Fail = (message: string) => ExitCode;

export async function withLocalModule(options: LocalModuleOptions, io: CliIo, use: (module: LoadedModule, input: unknown, fail: Fail) => Promise<ExitCode>): Promise<ExitCode> {
  const fail: Fail = (message) => {
    io.stderr.write(`adec ${options.command}: ${message}\n`);
    return EXIT.inputErrors;
  };
  const bundle = await readVerifiedBundle(options.bundleDir, options.trustPath, io, options.command);
  if (!bundle.ok) return fail(bundle.message);
  const input = await readJsonInput(options.input.source, options.input.option, options.input.what, io);
  if (!input.ok) return fail(input.message);
  const loaded = await loadModule(bundle.bundle, { isolation: options.isolation, ...(options.extensions !== undefined && { extensions: options.extensions }), ...(options.prepare !== undefined && { prepare: options.prepare }) });
  if (!loaded.ok) return fail(`${loaded.code}: ${loaded.message}`);
  try {
    return await use(loaded.module, input.value, fail);
  } finally {
    await loaded.module.evaluator.dispose();
  }
}
