/**
 * The default host (`--isolation auto`) answers a module approved after a rebuild from a
 * sandbox process while a thread verifies its code, then moves it in process
 * (packages/runtime/README.md "Isolation: where a module runs"). What the benches time is
 * after the move: this waits for it.
 */

/** The module serving `key` once the loader runs it in process; throws when it never will. */
export async function movedInProcess(loader, key, { pollMs = 5, timeoutMs = 60_000 } = {}) {
  for (let waited = 0; waited < timeoutMs; waited += pollMs) {
    const lookup = await loader.get(key);
    if (!lookup.ok) throw new Error(lookup.error.message);
    const { mode, reason, detail } = lookup.module.isolation;
    if (mode === 'in-process') return lookup.module;
    if (reason !== 'VERIFYING') throw new Error(`the default host runs the module in a sandbox process: ${reason}${detail === undefined ? '' : ` (${detail})`}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`the default host did not move the module in process within ${timeoutMs / 1000} s`);
}
