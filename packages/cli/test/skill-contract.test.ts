/**
 * `adec skill-contract` on a real build of examples/learning-coach: each skill's contract read
 * from the bundle (or from the world, built in memory, alike), as text for a person and as the
 * documents themselves; a skill the module does not have is a usage error naming the ones it has;
 * a bundle without documents, with a broken one, or whose signed manifest was changed is refused.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractProblems, SkillContractDocument } from '@adec/contracts';
import { runCli } from './run-cli.js';
import { repoPath } from '../../../test/support/repo.js';

const cli = (cwd: string, ...argv: string[]) => runCli(argv, cwd);
const SKILLS = ['lesson_pitch', 'lesson_note', 'review_note'];

let workspace: string;
/** The documents as manifest.json holds them. */
let documents: { skill_id: string }[];

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'adec-skill-contract-'));
  expect((await cli(workspace, 'build', repoPath('examples/learning-coach'), '--out', 'build')).code).toBe(0);
  documents = (JSON.parse(readFileSync(join(workspace, 'build', 'manifest.json'), 'utf8')) as { skill_contracts: { skill_id: string }[] }).skill_contracts;
}, 120_000);

/** A copy of the built bundle whose manifest.json `edit` rewrote. */
function editedBundle(name: string, edit: (manifest: Record<string, unknown>) => void): string {
  cpSync(join(workspace, 'build'), join(workspace, name), { recursive: true });
  const path = join(workspace, name, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  edit(manifest);
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  return name;
}

describe('adec skill-contract', () => {
  it('prints every skill of a bundle as text, and notes that the bundle was not verified', async () => {
    const run = await cli(workspace, 'skill-contract', 'build');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('the bundle was not verified against a trust configuration');
    expect(run.stdout.split('\n').filter((line) => line.startsWith('skill '))).toEqual([
      'skill lesson_pitch 1.0.0 (llm), contract 1.0.0',
      'skill lesson_note 1.0.0 (deterministic), contract 1.0.0',
      'skill review_note 1.0.0 (deterministic), contract 1.0.0',
    ]);
  });

  it("prints one skill's contract: its inputs, its output, its checks, its limits and its fallbacks", async () => {
    const run = await cli(workspace, 'skill-contract', 'build', 'lesson_pitch');
    expect(run.code).toBe(0);
    const text = run.stdout;
    expect(text).not.toContain('skill lesson_note');
    for (const line of [
      '    title: string (at most 60 characters)',
      '    level: "beginner" | "intermediate" | "advanced"',
      '  note: string (10..160 characters)',
      '  tone?: "warm" | "brisk" or null',
      '  with metadata: generated_at, generation_ms?, skill_id, skill_version, token_count?',
      '  INV-006 (universal) the payload keeps within its length limits',
      '  STUDY-001 (skill) The note names the lesson',
      '      payload.note CONTAINS action_metadata.title',
      '  STUDY-PROHIB-001 (skill) Promise no fluency',
      '      (?i)\\bfluen(t|cy)\\b',
      'time limits: timeout 300 ms, hard limit 500 ms',
      '  tier 3: the minimal safe output, an empty payload: used when tier 2 cannot be used either',
      'templates: none',
    ]) {
      expect(text.split('\n')).toContain(line);
    }
    expect(text).toMatch(/^ {2}tier 2: lesson_note 1\.0\.0, runs when tier 1's output cannot be used/m);
  });

  it('prints the documents as JSON: all of them as manifest.json holds them, or the one asked for', async () => {
    const all = await cli(workspace, 'skill-contract', 'build', '--format', 'json');
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual(documents);
    for (const [index, id] of SKILLS.entries()) {
      const one = await cli(workspace, 'skill-contract', 'build', id, '--format', 'json');
      expect(one.code).toBe(0);
      const document = JSON.parse(one.stdout) as unknown;
      expect(document).toEqual(documents[index]);
      expect(contractProblems(SkillContractDocument, document)).toEqual([]);
    }
  });

  it('reads a world as its build would: the same documents', async () => {
    const run = await cli(workspace, 'skill-contract', repoPath('examples/learning-coach'), '--format', 'json');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${JSON.stringify(documents, null, 2)}\n`);
  });

  it.each([
    ['lesson_pich', 'lesson_pitch'],
    ['review-note', 'review_note'],
    ['lesson_notes', 'lesson_note'],
    ['LESSON_NOTE', 'lesson_note'],
    ['teleport', undefined],
    ['', undefined],
  ])('refuses the skill `%s` with a usage error naming the skills (did you mean %s?)', async (asked, suggested) => {
    const run = await cli(workspace, 'skill-contract', 'build', asked);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`the module has no skill \`${asked}\` (skills: \`lesson_pitch\`, \`lesson_note\`, \`review_note\`)`);
    if (suggested === undefined) expect(run.stderr).not.toContain('did you mean');
    else expect(run.stderr).toContain(`did you mean \`${suggested}\`?`);
    expect(run.stderr).toContain('usage: adec skill-contract');
  });

  it.each([
    [['build', 'lesson_pitch', 'extra'], 'unexpected argument `extra`'],
    [[], 'missing <bundle|world>'],
    [['build', '--format', 'yaml'], 'invalid --format `yaml`'],
    [['build', '--json'], "Unknown option '--json'"],
  ])('refuses the command line %j', async (args, problem) => {
    const run = await cli(workspace, 'skill-contract', ...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(problem);
  });

  it('refuses --trust for a world, which has no signature to verify', async () => {
    const run = await cli(workspace, 'skill-contract', repoPath('examples/learning-coach'), '--trust', 'trust.json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--trust verifies a bundle');
  });

  it('refuses a bundle built before the documents, and one whose document is broken, naming what is wrong', async () => {
    const old = await cli(workspace, 'skill-contract', editedBundle('old', (manifest) => delete manifest['skill_contracts']));
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('holds no skill contract documents: it was built by a compiler older than them; rebuild it with `adec build`');
    const broken = await cli(
      workspace,
      'skill-contract',
      editedBundle('broken', (manifest) => {
        const [first] = manifest['skill_contracts'] as Record<string, unknown>[];
        first!['timeout'] = { default_ms: '300' };
      }),
    );
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('skill_contracts[0] of the bundle `broken` is not a skill contract document');
    expect(broken.stderr).toContain('/timeout/default_ms: must be integer');
    expect(broken.stderr).toContain("/timeout: must have required property 'hard_limit_ms'");
  });

  it('with --trust, prints the contracts of a signed bundle and refuses one whose contract was changed after signing', async () => {
    expect((await cli(workspace, 'keygen', '--out', 'keys', '--name', 'ci')).code).toBe(0);
    writeFileSync(join(workspace, 'trust.json'), JSON.stringify({ signing_keys: ['keys/ci.pub.jwk'], approval_keys: [], require_approval: false }));
    cpSync(join(workspace, 'build'), join(workspace, 'signed'), { recursive: true });
    expect((await cli(workspace, 'sign', 'signed', '--key', 'keys/ci.key.jwk')).code).toBe(0);
    const verified = await cli(workspace, 'skill-contract', 'signed', 'lesson_note', '--trust', 'trust.json', '--format', 'json');
    expect(verified).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(verified.stdout)).toEqual(documents[1]);

    const tampered = editedBundle('tampered', (manifest) => {
      const documents = manifest['skill_contracts'] as { timeout: { default_ms: number } }[];
      documents[0]!.timeout.default_ms = 500;
    });
    cpSync(join(workspace, 'signed', 'signature.json'), join(workspace, tampered, 'signature.json'));
    const refused = await cli(workspace, 'skill-contract', tampered, '--trust', 'trust.json');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('SIGNATURE_INVALID');
  });
});
