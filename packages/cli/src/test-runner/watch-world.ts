/**
 * `adec test --watch`: the world's directory watched for changes to its `.adec` files. Editors
 * save a file in several writes (some by writing a copy and renaming it), so changes are
 * gathered until the directory has been quiet for QUIET_MS, then one run starts; a change
 * during a run starts one more run after it, never two at once.
 */
import { watch } from 'node:fs';

/** Long enough to gather one save's writes, short enough to feel immediate. */
export const QUIET_MS = 150;

/**
 * Calls `rerun` with the changed files (relative to `root`, sorted) after each quiet spell, until
 * SIGINT or SIGTERM arrives on `signals`; resolves once the run in progress has finished.
 */
export function watchWorld(root: string, rerun: (changed: readonly string[]) => Promise<void>, signals: NodeJS.EventEmitter): Promise<void> {
  return new Promise((stopped) => {
    const changed = new Set<string>();
    let timer: NodeJS.Timeout | undefined;
    let runs = Promise.resolve();
    const watcher = watch(root, { recursive: true }, (_event, file) => {
      if (file === null || !file.endsWith('.adec')) return;
      changed.add(file.split('\\').join('/'));
      clearTimeout(timer);
      timer = setTimeout(() => {
        const files = [...changed].sort();
        changed.clear();
        runs = runs.then(() => rerun(files));
      }, QUIET_MS);
    });
    const stop = () => {
      signals.off('SIGINT', stop);
      signals.off('SIGTERM', stop);
      clearTimeout(timer);
      watcher.close();
      void runs.then(() => stopped());
    };
    signals.on('SIGINT', stop);
    signals.on('SIGTERM', stop);
  });
}
