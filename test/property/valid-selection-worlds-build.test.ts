/**
 * Code generation's contract on valid selection worlds: each checks without error, builds
 * without internal compiler error, and every scenario and skill function of the bundle runs in
 * a bare context on well-typed input with an answer of the declared kind; each skill's contract
 * document conforms to SkillContractDocument, its envelopes' schemas compiling in strict mode. Replay with
 * ADEC_PROPERTY_SEED=<seed>; run longer with ADEC_PROPERTY_RUNS=<n>.
 */
import { createContext, runInContext } from 'node:vm';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { checkSources } from '@adec/compiler';
import { contractProblems, SkillContractDocument } from '@adec/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUNDLE_GLOBAL_NAME, bundleModule } from '../../packages/compiler/src/bundle/index.js';
import { generateAndVerify } from '../../packages/compiler/src/generate/index.js';
import { skillContractDocuments } from '../../packages/compiler/src/manifest/index.js';
import { selectionInput, validSelectionWorld } from './valid-selection-world-generator.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_122 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 40 : Number(process.env['ADEC_PROPERTY_RUNS']);

type Fn = (...args: unknown[]) => unknown;
interface Scenario {
  state: { name: string; derive: Fn }[];
  guardrails: { id: string; effect: string; when: Fn; predicate?: Fn; limit?: Fn }[];
  objectives: { name: string; score: Fn }[];
  tie_breaks: { key: Fn }[];
}
interface Skill {
  templates: { name: string; when?: Fn; render: Fn }[];
}

describe('valid selection worlds', () => {
  it('check without error, build without internal compiler error, and their functions run', async () => {
    await fc.assert(
      fc.asyncProperty(validSelectionWorld(), selectionInput(), async (text, input) => {
        const { world, diagnostics } = checkSources({ root: 'w', files: [{ path: 'w/main.adec', text }] });
        expect(diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.span.line}:${d.span.column} ${d.message}`)).toEqual([]);
        const documents = skillContractDocuments(world!);
        expect(documents.map((document) => document.skill_id)).toContain('narrator');
        for (const document of documents) {
          expect(contractProblems(SkillContractDocument, document), document.skill_id).toEqual([]);
          const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false });
          for (const schema of [document.input_schema, document.output_schema]) expect(() => ajv.compile(schema), document.skill_id).not.toThrow();
        }
        const generated = generateAndVerify(world!, { compilerVersion: '0.1.0', sources: ['main.adec'] });
        expect(generated.problems).toEqual([]);
        const module = runInContext(`${await bundleModule(generated.source)}\n${BUNDLE_GLOBAL_NAME};`, createContext(Object.create(null) as object)) as {
          _SCENARIOS: Record<string, Scenario>;
          _SKILLS: Record<string, Skill>;
          _INVARIANTS: Record<string, { id: string; check: Fn }[]>;
        };

        const scenario = module._SCENARIOS['pick']!;
        const state: Record<string, unknown> = {};
        for (const entry of scenario.state) state[entry.name] = entry.derive(input.signals, state);
        expect(typeof state['engagement']).toBe('number');
        const env = { ...input.signals, ...state };
        for (const action of input.actions) {
          for (const guardrail of scenario.guardrails) {
            expect(typeof guardrail.when(env), guardrail.id).toBe('boolean');
            if (guardrail.predicate) expect(typeof guardrail.predicate(env, action), guardrail.id).toBe('boolean');
            if (guardrail.limit) expect(typeof guardrail.limit(env, action), guardrail.id).toBe('number');
          }
          for (const objective of scenario.objectives) expect(typeof objective.score(env, action), objective.name).toBe('number');
          for (const tieBreak of scenario.tie_breaks) expect(['number', 'string']).toContain(typeof tieBreak.key(env, action));

          const metadata = { name: action.name, level: action.level, minutes: action.minutes };
          const renderInput = { action_metadata: metadata, user_state: { engagement: state['engagement'] }, decision_context: { decision_id: 'd', selected_action: action.action_id, action_metadata: metadata } };
          for (const template of module._SKILLS['narrator']!.templates) {
            if (template.when) expect(typeof template.when(renderInput), template.name).toBe('boolean');
            const payload = template.render(renderInput) as { rationale: unknown };
            expect(typeof payload.rationale, template.name).toBe('string');
            for (const invariant of module._INVARIANTS['narrator']!) {
              expect(typeof invariant.check({ ...renderInput, payload }), invariant.id).toBe('boolean');
            }
          }
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
