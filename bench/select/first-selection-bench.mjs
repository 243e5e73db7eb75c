/**
 * The first selection after a module loads (docs/spec/selection.md §7.4), beside the ones after
 * it: for each isolation and mode, `runs` fresh processes (first-selection-probe.mjs), each loading
 * the fitness world through a `ModuleLoader` as the decision service does and timing its first
 * selection and the next WARM ones by the trace's own figures. A fresh process is the coldest
 * case: nothing of the engine has run before the load. One more row loads without preparing,
 * as every host did before issue 30, to show what preparation moves into the load.
 *
 * Standalone: node --no-node-snapshot bench/select/first-selection-bench.mjs [--quick] [--write]
 *   --write replaces the section in bench/RESULTS.md (first-selection-report.mjs), leaving the
 *   rest of the report as the last full run wrote it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { publishWorld } from '../lib/publish-synthetic.mjs';
import { fitnessFiles } from './select-requests.mjs';

const run = promisify(execFile);
const PROBE = fileURLToPath(new URL('./first-selection-probe.mjs', import.meta.url));
/** Selections after the first in each process. */
const WARM = 50;

/** What each row loads and selects with; `prepare: false` is a host without preparation. */
const VARIANTS = [
  { isolation: 'in-process', mode: 'deterministic_only', prepare: true },
  { isolation: 'in-process', mode: 'skill_enhanced', prepare: true },
  { isolation: 'process', mode: 'deterministic_only', prepare: true },
  { isolation: 'process', mode: 'skill_enhanced', prepare: true },
  { isolation: 'in-process', mode: 'deterministic_only', prepare: false },
];

/** @returns {Promise<{ runs: number, warm: number, rows: object[] }>} each row a variant with its processes' samples */
export async function runFirstSelectionBench({ quick }) {
  const runs = quick ? 2 : 12;
  const scratch = mkdtempSync(join(tmpdir(), 'adec-first-selection-'));
  try {
    const store = join(scratch, 'store');
    const published = await publishWorld(store, 'fitness', fitnessFiles());
    const key = { org: published.key.org, domain: published.key.domain, version: published.key.version };
    const rows = [];
    for (const variant of VARIANTS) {
      const samples = [];
      for (let i = 0; i < runs; i++) {
        // A different request in each process: the first selection is whichever comes first.
        const config = { store, publicKeys: published.publicKeys, key, ...variant, request: i * (WARM + 1), warm: WARM };
        const { stdout } = await run(process.execPath, ['--no-node-snapshot', PROBE, JSON.stringify(config)], { maxBuffer: 16 * 1024 * 1024 });
        samples.push(JSON.parse(stdout));
      }
      const first = samples.map(({ first }) => ('failure' in first ? first.failure : first.totalMs.toFixed(1)));
      console.error(`first selection: ${variant.isolation}, ${variant.mode}${variant.prepare ? '' : ', not prepared'}: first ${first.join(' ')} ms`);
      rows.push({ ...variant, samples });
    }
    return { runs, warm: WARM, rows };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runFirstSelectionBench({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--write')) {
    const { writeFirstSelectionSection } = await import('./first-selection-report.mjs');
    console.error(`wrote ${writeFirstSelectionSection(result)}`);
  } else console.log(JSON.stringify(result, null, 2));
}
