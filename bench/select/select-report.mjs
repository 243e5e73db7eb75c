/** The markdown of the selection section of bench/RESULTS.md, from runSelectBench's result. */
import { SELECT_TARGETS } from './select-bench.mjs';

const ms = (value) => (value < 1 ? value.toFixed(3) : value < 10 ? value.toFixed(2) : value.toFixed(1));
const perSecond = (value) => Math.round(value).toLocaleString('en-US');

export function selectReport(result) {
  const byMode = (isolation, mode) => result.inHost.find((row) => row.isolation === isolation && row.mode === mode);
  const lines = [
    '| fitness world, one selection at a time | isolation | p50 | p99 | selections/s | output of (tier 1 skill / tier 2 fallback) |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const row of result.inHost) {
    lines.push(`| ${row.mode === 'deterministic_only' ? 'deterministic_only' : 'skill_enhanced, a model that answers at once'} | ${row.isolation}${row.isolation === 'process' ? ' (default)' : ''} | ${ms(row.p50Ms)} ms | ${ms(row.p99Ms)} ms | ${perSecond(row.perSecond)} | ${row.tiers[1]} / ${row.tiers[2]} |`);
  }
  const http = [
    '| POST /v1/select, trace committed to SQLite | connections | selections/s | p50 | p99 | traces per group commit (mean commit) |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const server of result.http) {
    for (const row of server.rows) http.push(`| ${server.name} | ${row.connections} | ${perSecond(row.perSecond)} | ${ms(row.p50Ms)} ms | ${ms(row.p99Ms)} ms | ${row.batch.toFixed(1)} (${ms(row.commitMs)} ms) |`);
  }
  const deterministic = byMode('in-process', 'deterministic_only');
  const overhead = (isolation) => byMode(isolation, 'skill_enhanced').p50Ms - byMode(isolation, 'deterministic_only').p50Ms;
  const targets = [
    '| target (this run) | measured | target | met |',
    '| --- | ---: | ---: | :---: |',
    `| deterministic selection p50, in process | ${ms(deterministic.p50Ms)} ms | < ${SELECT_TARGETS.inProcessP50Ms} ms | ${deterministic.p50Ms < SELECT_TARGETS.inProcessP50Ms ? 'yes' : '**no**'} |`,
    `| LLM-enhanced mode over deterministic, p50, the model's latency excluded | ${ms(overhead('in-process'))} ms in process, ${ms(overhead('process'))} ms in a sandbox process | – | – |`,
  ];
  return `${lines.join('\n')}\n\n${http.join('\n')}\n\n${targets.join('\n')}`;
}
