import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isJsonObject } from '@adec/abi';
import { contractProblems, SkillContractDocument } from '@adec/contracts';
import { closestMatch } from '@adec/diagnostics';
import { choiceOption, parseOptions } from '../bundle-command.js';
import { readVerifiedBundle } from '../bundle-input.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { progress, writeJson, type OutputFormat } from '../report.js';
import { renderSkillContract, type SkillContract } from '../skill-contract/render-skill-contract.js';
import { UsageError } from '../usage-error.js';
import { buildWorldOrReport } from '../world-input.js';

export const usage = `usage: adec skill-contract <bundle|world> [<skill>] [options]

Prints the execution contract of each skill (docs/spec/skill-contract.md §7), as \`adec build\`
writes it into the signed manifest: what the skill receives and may return (JSON Schemas of its
input and output envelopes), the invariants and prohibitions its output is checked against, the
time limits the engine enforces, its fallback chain down to the minimal safe output, its
templates and what the trace records of a run. <bundle> is a built bundle directory (it holds
manifest.json); any other directory is read as a world and built in memory. With <skill>, only
that skill's contract.

options:
  --format text|json    text for a person (default), or the documents as JSON: the one document
                        with <skill>, else an array in the manifest's order of skills
  --trust <trust.json>  verify the bundle's signature and approval as a host does (a bundle only)
Exit 0 with the contracts; 1 when the world has errors, or the bundle does not verify or holds no
contract documents; 2 on usage errors (a skill the module does not have among them).`;

/** `adec skill-contract <bundle|world> [<skill>]`: a skill's contract, readable without its source. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, values } = parseOptions(args, usage, { format: { type: 'string', default: 'text' }, trust: { type: 'string' } }, ['<bundle|world>'], 1);
  const format = choiceOption(values, 'format', ['text', 'json'] as const, usage);
  const [dir, skillId] = positionals as [string, string | undefined];
  const trustPath = typeof values['trust'] === 'string' ? values['trust'] : undefined;
  const fail = (message: string): ExitCode => {
    io.stderr.write(`adec skill-contract: ${message}\n`);
    return EXIT.inputErrors;
  };

  const read = await readContracts(dir, trustPath, format, io);
  if (!read.ok) return read.message === undefined ? EXIT.inputErrors : fail(read.message);
  const documents = read.documents;
  const shown = skillId === undefined ? documents : [chosen(documents, skillId)];
  if (format === 'json') writeJson(io.stdout, skillId === undefined ? shown : shown[0]);
  else io.stdout.write(shown.map(renderSkillContract).join('\n'));
  return EXIT.ok;
}

/** The documents' source could not be read; `message` is absent when the world's diagnostics were reported. */
type ContractsRead = { readonly ok: true; readonly documents: readonly SkillContract[] } | { readonly ok: false; readonly message?: string };

async function readContracts(dir: string, trustPath: string | undefined, format: OutputFormat, io: CliIo): Promise<ContractsRead> {
  if (await isBundle(resolve(io.cwd, dir))) {
    const bundle = await readVerifiedBundle(dir, trustPath, io, 'skill-contract');
    if (!bundle.ok) return { ok: false, message: bundle.message };
    const { manifest } = bundle.bundle;
    return contractsOfManifest(isJsonObject(manifest) ? manifest['skill_contracts'] : undefined, `the bundle \`${dir}\``);
  }
  if (trustPath !== undefined) throw new UsageError(`--trust verifies a bundle, and \`${dir}\` holds no manifest.json: it is read as a world\n\n${usage}`);
  const built = await buildWorldOrReport(dir, format, io, progress(io.stderr));
  if (built === undefined) return { ok: false };
  // Read as the bundle would hold them (manifest.json's bytes), so a world and its build print alike.
  const manifest = JSON.parse(built.artifacts.manifestJson) as { skill_contracts?: unknown };
  return contractsOfManifest(manifest.skill_contracts, `the world \`${dir}\``);
}

async function isBundle(dir: string): Promise<boolean> {
  try {
    return (await stat(join(dir, 'manifest.json'))).isFile();
  } catch {
    return false;
  }
}

/** The manifest's documents, each checked against its contract: a bundle is input, and may be old or made by hand. */
function contractsOfManifest(documents: unknown, source: string): ContractsRead {
  if (documents === undefined) return { ok: false, message: `${source} holds no skill contract documents: it was built by a compiler older than them; rebuild it with \`adec build\`` };
  if (!Array.isArray(documents)) return { ok: false, message: `${source} has a manifest whose skill_contracts is not a list` };
  for (const [index, document] of documents.entries()) {
    const problems = contractProblems(SkillContractDocument, document);
    if (problems.length > 0) return { ok: false, message: `skill_contracts[${index}] of ${source} is not a skill contract document:\n  ${problems.slice(0, 10).join('\n  ')}` };
  }
  return { ok: true, documents: documents as SkillContract[] };
}

/** The document of `skillId`; a skill the module does not have is a usage error naming the ones it has. */
function chosen(documents: readonly SkillContract[], skillId: string): SkillContract {
  const found = documents.find((document) => document.skill_id === skillId);
  if (found !== undefined) return found;
  const known = documents.map((document) => document.skill_id);
  const close = closestMatch(skillId, known);
  const help = close === undefined ? '' : `; did you mean \`${close}\`?`;
  throw new UsageError(`the module has no skill \`${skillId}\` (skills: ${known.map((id) => `\`${id}\``).join(', ') || 'none'})${help}\n\n${usage}`);
}
