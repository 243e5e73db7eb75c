#!/usr/bin/env node
/**
 * Finds the citations of design documents that are not in the repository (the selection-cycle,
 * skill-contract, decision-execution and contracts documents the project started from, and the
 * ADRs they name) and maps each to the section of docs/spec/ that restates it.
 *
 *   node scripts/spec-citations.mjs [paths…]           report: every citation, file:line, old → new, and counts
 *   node scripts/spec-citations.mjs --write [paths…]   rewrite them in place
 *
 * Without paths the whole repository is read (node_modules, dist, .git and build output left
 * out). The table below is the one mapping from an old reference to a section; the rules run in
 * order, the specific ones (a stage, a phase, a decision of an ADR) before the general ones.
 * test/docs/spec-citations.test.ts uses `findCitations` to fail on any citation left.
 *
 * A rewrite is plain text substitution, so the same message in a diagnostic's source, its
 * baseline and its generated page is rewritten alike: run it over all three together.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const SELECTION = 'docs/spec/selection.md';
const SKILLS = 'docs/spec/skill-contract.md';
const ADJUDICATION = 'docs/spec/adjudication.md';
const CONTRACTS = 'docs/spec/contracts.md';

/** What still counts as a citation of a document outside the repository. */
export const OLD_CITATION = /\b[Ss]eeds? 00[0-4]\b|\bSEC (?:§|Appendix)|\bADR-\d+|\bIAE\b/g;

/** Between two words of a phrase: a space, or a line break with the comment marker that continues it. */
const GAP = String.raw`(?:[ \t]*\n[ \t]*(?:\*|//|#)?[ \t]*|[ \t]+)`;

/** Keeps "Seed 000's …" at the start of a sentence capitalised after it becomes "The …". */
function sentence(first, text) {
  return first === 'S' ? text[0].toUpperCase() + text.slice(1) : text;
}

/**
 * The mapping, in the order the rules are tried. `to` is a replacement string (with `$1`…) or a
 * function of the match; `section` names the target for the report.
 */
export const CITATION_TABLE = [
  // The selection cycle (stages 1–9), with its stages and sections.
  { old: 'Stage N (seed 000', section: `${SELECTION} §3.N`, find: /\b([Ss]tage) ([1-9]) \(seed 000\b/g, to: `$1 $2 (${SELECTION} §3.$2` },
  { old: 'seed 000 stages 1–9', section: `${SELECTION} §3`, find: /\bseed 000 stages 1–9\b/g, to: `${SELECTION} §3` },
  { old: 'seed 000 stages N–M', section: `${SELECTION} §3.N–§3.M`, find: /\bseed 000 stages ([1-9])–([1-9])\b/g, to: `${SELECTION} §3.$1–§3.$2` },
  { old: 'seed 000 stage N', section: `${SELECTION} §3.N`, find: /\bseed 000 stage ([1-9])\b/g, to: `${SELECTION} §3.$1` },
  { old: 'seed 000: <HTTP status>', section: `${SELECTION} §6`, find: /\b[Ss]eed 000: (?=(?:HTTP )?[45]\d\d\b|scoring failure)/g, to: `${SELECTION} §6: ` },
  { old: 'seed 000: a UUID v4', section: `${SELECTION} §3.1`, find: /\bseed 000: (?=a UUID)/g, to: `${SELECTION} §3.1: ` },
  { old: 'seed 000: execution capabilities', section: `${SELECTION} §3.5`, find: /\bseed 000: (?=execution\b)/g, to: `${SELECTION} §3.5: ` },
  { old: 'seed 000: "an action is eligible…"', section: `${SELECTION} §3.3`, find: /\bseed 000: (?="an action is eligible)/g, to: `${SELECTION} §3.3: ` },
  { old: 'Seed 000: the engine default', section: `${SELECTION} §5`, find: /\b[Ss]eed 000: (?=the engine default)/g, to: `${SELECTION} §5: ` },
  { old: 'Seed 000 lists "fallback failure → 500"; seed 001\'s tier 3…', section: `${SELECTION} §8.5`, find: new RegExp(String.raw`\bSeed 000(${GAP})lists "fallback failure → 500"; seed 001's tier 3 makes that impossible`, 'g'), to: (_m, gap) => `The reference design answers a failed fallback with${gap}500; adec does not (${SELECTION} §8.5): tier 3 of ${SKILLS} §6.1 makes that impossible` },
  { old: "seed 000's DecisionResponse", section: `${SELECTION} §3.9`, find: new RegExp(String.raw`\b([Ss])eed 000(\\?)'s(${GAP})(\`?)DecisionResponse\4`, 'g'), to: (_m, s, _escape, gap, tick) => sentence(s, `the${gap}${tick}DecisionResponse${tick} of ${SELECTION} §3.9`) },
  { old: "seed 000's replay token", section: `${SELECTION} §3.9`, find: /\b([Ss])eed 000's replay token\b/g, to: (_m, s) => sentence(s, `the replay token of ${SELECTION} §3.9`) },
  { old: "seed 000's full trace", section: `${SELECTION} §3.9`, find: /\b([Ss])eed 000's full trace\b/g, to: (_m, s) => sentence(s, `the full trace of ${SELECTION} §3.9`) },
  { old: "seed 000's hard limits", section: `${SELECTION} §7`, find: /\b([Ss])eed 000's hard limits\b/g, to: (_m, s) => sentence(s, `the hard limits of ${SELECTION} §7`) },
  { old: "seed 000's is N ms (its latency target)", section: `${SELECTION} §7`, find: /\bseed 000's is\b/g, to: `${SELECTION} §7 targets` },
  { old: "seed 000's `execution_mode_override`", section: `${SELECTION} §5`, find: /\b([Ss])eed 000's `execution_mode_override`/g, to: (_m, s) => sentence(s, `the \`execution_mode_override\` of ${SELECTION} §5`) },
  { old: "seed 000's `{ replay token fields }`", section: `${SELECTION} §3.9`, find: /\bseed 000's (?=`\{ decision_id)/g, to: `${SELECTION} §3.9's ` },

  // The skill execution contract, its numbered sections and its appendix.
  { old: 'seed 001 §N', section: `${SKILLS} §N`, find: /\bseed 001 §(\d+)/g, to: `${SKILLS} §$1` },
  { old: 'SEC §N–§M', section: `${SKILLS} §N–§M`, find: /\bSEC §(\d+)–§(\d+)/g, to: `${SKILLS} §$1–§$2` },
  { old: 'SEC §N', section: `${SKILLS} §N`, find: /\bSEC §(\d+)/g, to: `${SKILLS} §$1` },
  { old: 'SEC Appendix B (the invariant check language)', section: `${SKILLS} §9`, find: /\bSEC Appendix B\b/g, to: `${SKILLS} §9` },
  { old: 'SEC Appendix A (the fitness contract)', section: SKILLS, find: /\bSEC Appendix A\b/g, to: `${SKILLS}, the fitness example` },
  { old: 'seed 001, Appendix A', section: SKILLS, find: /\bseed 001, Appendix A\b/g, to: `${SKILLS}, the fitness example` },
  { old: "seed 001's tier 3", section: `${SKILLS} §6.1`, find: /\bseed 001's tier 3\b/g, to: `tier 3 of ${SKILLS} §6.1` },
  { old: "seed 001's skill execution tests", section: `${SKILLS} §10`, find: new RegExp(String.raw`\bseed 001(\\?)'s ("?)[Ss]kill${GAP}[Ee]xecution${GAP}[Tt]ests\b`, 'g'), to: `the skill execution tests of ${SKILLS} §10` },
  { old: 'seed 001: "llm_unavailable"', section: `${SKILLS} §6.3`, find: /\bseed 001: (?="llm_unavailable")/g, to: `${SKILLS} §6.3: ` },
  { old: 'seed 001 (executors)', section: `${SKILLS} §8`, find: /\b(?:The executor interface of seed 001|`(llm_stub|cloud_llm)` \(seed 001\))/g, to: (m, executor) => (executor === undefined ? `The executor interface of ${SKILLS} §8` : `\`${executor}\` (${SKILLS} §8)`) },

  // Decision execution (the phases of an adjudication) and the rule-outcome ADR.
  { old: 'seeds 002, 004', section: ADJUDICATION, find: /\bseeds 002, 004\b/g, to: ADJUDICATION },
  { old: 'seed 002, ADR-106', section: `${ADJUDICATION} §1, §3`, find: /\bseed 002, ADR-106\b/g, to: `${ADJUDICATION} §1, §3` },
  { old: 'seed 002, "Status"', section: `${ADJUDICATION} §5.1`, find: /\bseed 002, "Status"/g, to: `${ADJUDICATION} §5.1` },
  { old: 'seed 002 phases 1–5', section: `${ADJUDICATION} §2`, find: /\bseed 002 phases 1–5\b/g, to: `${ADJUDICATION} §2` },
  { old: 'seed 002 phase N', section: `${ADJUDICATION} §2.N`, find: /\bseed 002 phase ([1-5])\b/g, to: `${ADJUDICATION} §2.$1` },
  { old: 'seed 002: "a tenant\'s only lever…"', section: `${ADJUDICATION} §7`, find: /\bseed 002: (?="a tenant)/g, to: `${ADJUDICATION} §7: ` },
  { old: 'seed 002 puts the predicate traces in the response', section: `${ADJUDICATION} §5.2`, find: /\bseed 002 puts\b/g, to: `${ADJUDICATION} §5.2 puts` },
  { old: 'seed 002 (the predicate traces in the answer)', section: `${ADJUDICATION} §5.2`, find: /\(seed 002\)(?=\. `\?traces=false`)/g, to: `(${ADJUDICATION} §5.2)` },
  { old: 'pre-ADR-106 / before ADR-106', section: `${ADJUDICATION} §6`, find: /\bpre-ADR-106\b|\bbefore ADR-106\b/g, to: (m) => (m.startsWith('pre') ? 'ABI 1' : 'under ABI 1') },
  { old: 'ADR-106 D1, D2', section: `${ADJUDICATION} §3`, find: /(?:docs\/adr )?\bADR-106 D[12]\b/g, to: `${ADJUDICATION} §3` },
  { old: 'ADR-106 D3', section: `${ADJUDICATION} §4`, find: /(?:docs\/adr )?\bADR-106 D3\b/g, to: `${ADJUDICATION} §4` },
  { old: 'ADR-106 D4', section: `${ADJUDICATION} §5.2`, find: /(?:docs\/adr )?\bADR-106 D4\b/g, to: `${ADJUDICATION} §5.2` },
  { old: 'ADR-106 D5', section: `${ADJUDICATION} §6`, find: /(?:docs\/adr )?\bADR-106 D5\b/g, to: `${ADJUDICATION} §6` },
  { old: 'ADR-106 `winner_takes_all`', section: `${ADJUDICATION} §4.2`, find: /\bADR-106 (?=`winner_takes_all`)/g, to: `${ADJUDICATION} §4.2, ` },
  { old: 'ADR-106', section: `${ADJUDICATION} §3`, find: /(?:docs\/adr )?\bADR-106\b/g, to: `${ADJUDICATION} §3` },
  { old: 'ADR-083 D3', section: `${ADJUDICATION} §4.4`, find: /\bADR-083 D3\b/g, to: `${ADJUDICATION} §4.4` },
  { old: 'ADR-077 D3', section: `${ADJUDICATION} §5`, find: /\bADR-077 D3\b/g, to: `${ADJUDICATION} §5` },

  // The contracts (execution outcome, reasoning trace).
  { old: "seed 003's Execution Outcome Package", section: `${CONTRACTS} §3`, find: new RegExp(String.raw`\bseed 003's Execution(${GAP})Outcome Package\b`, 'g'), to: (_m, gap) => `the Execution${gap}Outcome Package (${CONTRACTS} §3)` },
  { old: "seed 003's Reasoning Trace identity", section: `${CONTRACTS} §4`, find: new RegExp(String.raw`\bseed 003's (?:Reasoning(${GAP})Trace )?identity\b`, 'g'), to: (_m, gap) => (gap === undefined ? `the trace identity of ${CONTRACTS} §4` : `the trace${gap}identity of ${CONTRACTS} §4`) },

  // Whatever is left: the document as a whole.
  { old: 'seed 000', section: SELECTION, find: /\b[Ss]eed 000\b/g, to: SELECTION },
  { old: 'seed 001', section: SKILLS, find: /\b[Ss]eed 001\b/g, to: SKILLS },
  { old: 'seed 002', section: ADJUDICATION, find: /\b[Ss]eed 002\b/g, to: ADJUDICATION },
  { old: 'seed 003', section: CONTRACTS, find: /\b[Ss]eed 003\b/g, to: CONTRACTS },
  { old: 'seed 004', section: `${ADJUDICATION} §4`, find: /\b[Ss]eed 004\b/g, to: `${ADJUDICATION} §4` },
];

/** `docs/spec/x.md §1; docs/spec/x.md §2` reads `docs/spec/x.md §1, §2`. */
const SAME_PAGE_TWICE = /(docs\/spec\/([\w-]+)\.md §[\d.–§]+)[,;] docs\/spec\/\2\.md (§[\d.–§]+)/g;

/**
 * `text` with every citation the table knows rewritten, and what was rewritten: the rule's old
 * reference and the 1-based line where the citation started.
 */
export function rewriteCitations(text) {
  const rewrites = [];
  let result = text;
  for (const rule of CITATION_TABLE) {
    result = result.replace(rule.find, (...args) => {
      const offset = args.at(-2);
      const source = args.at(-1);
      const after = typeof rule.to === 'string' ? rule.to.replace(/\$(\d)/g, (_, n) => args[Number(n)] ?? '') : rule.to(...args);
      rewrites.push({ old: rule.old, section: rule.section, line: source.slice(0, offset).split('\n').length, before: args[0], after });
      return after;
    });
  }
  while (SAME_PAGE_TWICE.test(result)) result = result.replace(SAME_PAGE_TWICE, '$1, $3');
  return { text: result, rewrites };
}

/** Every old citation in `text`, with its 1-based line and the text of that line. */
export function citationsIn(text) {
  const lines = text.split('\n');
  return lines.flatMap((line, i) => [...line.matchAll(OLD_CITATION)].map((match) => ({ line: i + 1, citation: match[0], text: line.trim() })));
}

/** Directories never read: dependencies and build output. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', '.adec-demo', '.adec-ice', 'out', 'build', '.work']);
/**
 * Files never read: this tool's own table and its test, and files whose bytes are pinned by a
 * hash in the repository (a deployed legacy bundle, kept byte for byte: rewriting a comment in it
 * would break the module hash its manifest records).
 */
export const SKIPPED_FILES = ['scripts/spec-citations.mjs', 'test/docs/spec-citations.test.ts', 'packages/runtime/test/fixtures/legacy-abi1/bundle.js'];
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** Repo-relative paths of the text files under `paths` (files or directories), sorted. */
export function textFiles(paths = ['.'], root = REPO_ROOT) {
  const files = [];
  const visit = (path) => {
    const absolute = resolve(root, path);
    const stats = statSync(absolute);
    const shown = relative(root, absolute).split(sep).join('/');
    if (stats.isDirectory()) {
      for (const entry of readdirSync(absolute)) if (!SKIPPED_DIRS.has(entry)) visit(join(absolute, entry));
    } else if (stats.isFile() && stats.size <= MAX_FILE_BYTES && !SKIPPED_FILES.includes(shown)) {
      files.push(shown);
    }
  };
  for (const path of paths) visit(path);
  return files.sort();
}

/** The text of a repo-relative file; undefined for a binary one. */
export function readTextFile(path, root = REPO_ROOT) {
  const text = readFileSync(resolve(root, path), 'utf8');
  return text.includes('\0') ? undefined : text;
}

/** Every old citation in the text files under `paths`: `{ file, line, citation, text }`. */
export function findCitations(paths = ['.'], root = REPO_ROOT) {
  return textFiles(paths, root).flatMap((file) => {
    const text = readTextFile(file, root);
    return text === undefined ? [] : citationsIn(text).map((hit) => ({ file, ...hit }));
  });
}

function oneLine(text) {
  return text.replace(/\s+/g, ' ');
}

function main(args) {
  const write = args.includes('--write');
  const paths = args.filter((arg) => arg !== '--write');
  const byOld = new Map();
  const byArea = new Map();
  let files = 0;
  let rewritten = 0;
  const left = [];
  for (const file of textFiles(paths.length > 0 ? paths : ['.'])) {
    const text = readTextFile(file);
    if (text === undefined || citationsIn(text).length === 0) continue;
    files++;
    const result = rewriteCitations(text);
    for (const rewrite of result.rewrites) {
      console.log(`${file}:${rewrite.line}: ${oneLine(rewrite.before)} → ${oneLine(rewrite.after)}`);
      byOld.set(`${rewrite.old} → ${rewrite.section}`, (byOld.get(`${rewrite.old} → ${rewrite.section}`) ?? 0) + 1);
      const area = file.split('/').slice(0, file.startsWith('packages/') ? 2 : 1).join('/');
      byArea.set(area, (byArea.get(area) ?? 0) + 1);
      rewritten++;
    }
    left.push(...citationsIn(result.text).map((hit) => ({ file, ...hit })));
    if (write && result.text !== text) writeFileSync(resolve(REPO_ROOT, file), result.text);
  }
  console.log(`\n${rewritten} citations in ${files} files ${write ? 'rewritten' : 'to rewrite (run with --write)'}`);
  console.log('\nby old reference:');
  for (const [old, count] of [...byOld].sort((a, b) => b[1] - a[1])) console.log(`  ${String(count).padStart(4)}  ${old}`);
  console.log('\nby area:');
  for (const [area, count] of [...byArea].sort((a, b) => b[1] - a[1])) console.log(`  ${String(count).padStart(4)}  ${area}`);
  if (left.length > 0) {
    console.log(`\n${left.length} citations no rule maps (add a row to CITATION_TABLE):`);
    for (const hit of left) console.log(`  ${hit.file}:${hit.line}: ${hit.citation}: ${hit.text}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
