/**
 * A build run from the compiled compiler generates on a worker thread; run from sources (as
 * here, under the test runner) it generates in process. Both must give the same bytes.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildWorld, isWorldLoadError, loadWorld } from '@adec/compiler';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

const BUILD_WITH_DIST = fileURLToPath(new URL('./build-with-dist.mjs', import.meta.url));

describe.each(['examples/benefits', 'examples/fitness'])('%s', (example) => {
  it('builds the same artifacts on the worker thread as in process', async () => {
    const sources = await loadWorld(example, REPO);
    if (isWorldLoadError(sources)) throw new Error(sources.problem);
    const inProcess = (await buildWorld(sources)).artifacts;
    const { stdout } = await promisify(execFile)(process.execPath, [BUILD_WITH_DIST, example], {
      cwd: REPO,
      maxBuffer: 32 * 1024 * 1024,
    });
    expect(JSON.parse(stdout)).toEqual(JSON.parse(JSON.stringify(inProcess)));
  });
});
