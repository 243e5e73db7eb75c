/**
 * Runs pipeline step 3 (generate + verify, the TypeScript-heavy part of a build) on a worker
 * thread started when the build starts. Importing ts-morph, loading the lib files and warming
 * up the checker then happen on the second core while the main thread parses and checks, which
 * takes about 1 s off every build (measured in bench/, recorded in bench/RESULTS.md), and the
 * main thread never loads TypeScript at all.
 *
 * When adec runs from its TypeScript sources (the test runner), there is no compiled worker
 * script, so the same `generateAndVerify` runs in process; a test checks both paths give
 * byte-identical modules.
 */
import { Worker } from 'node:worker_threads';
import type { CheckedWorld } from '../model/index.js';
import type { GeneratedModule } from './generate-and-verify.js';
import type { ModuleProvenance } from './generate-module.js';

export interface GenerateRequest {
  readonly world: CheckedWorld;
  readonly provenance: ModuleProvenance;
}

export type GenerateResponse = { readonly ok: true; readonly module: GeneratedModule } | { readonly ok: false; readonly error: string };

export interface ModuleGenerator {
  /** Generates and verifies the module of `world`. Rejects only on a bug in adec. */
  generate(world: CheckedWorld, provenance: ModuleProvenance): Promise<GeneratedModule>;
  /** Releases the worker; safe to call more than once, and before `generate`. */
  close(): Promise<void>;
}

export function startModuleGenerator(): ModuleGenerator {
  return import.meta.url.endsWith('.ts') ? inProcessGenerator() : workerGenerator();
}

function workerGenerator(): ModuleGenerator {
  const worker = new Worker(new URL('./generator-worker.js', import.meta.url));
  let closed = false;
  return {
    generate: (world, provenance) =>
      new Promise<GeneratedModule>((resolve, reject) => {
        const fail = (error: Error) => {
          worker.off('message', answer);
          reject(error);
        };
        const answer = (response: GenerateResponse) => {
          worker.off('error', fail);
          if (response.ok) resolve(response.module);
          else reject(new Error(`the module generator failed:\n${response.error}`));
        };
        worker.once('message', answer);
        worker.once('error', fail);
        worker.postMessage({ world, provenance } satisfies GenerateRequest);
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      await worker.terminate();
    },
  };
}

function inProcessGenerator(): ModuleGenerator {
  return {
    generate: async (world, provenance) => (await import('./generate-and-verify.js')).generateAndVerify(world, provenance),
    close: async () => {},
  };
}
