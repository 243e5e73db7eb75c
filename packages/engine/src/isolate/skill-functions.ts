/**
 * Stages 6 and 7: the skill functions the module compiled, called with a skill's input (docs/spec/skill-contract.md §1,
 * as the module's templates and invariants read it), frozen before any of them sees it. A
 * failing function answers `{ ok: false }`, never a throw: a skill fault is the fallback's
 * business, not a sandbox failure.
 */
import type { ConfusablePrototypes } from '../skills/text/read-text.js';
import { readText } from '../skills/text/read-text.js';
import { compacted, spacedOut } from '../skills/text/text-forms.js';
import { deepFreeze } from './module-calls.js';
import type { CompiledInvariant, CompiledSkill, ModuleFunction, SelectionModule } from './selection-module.js';

const { parse, stringify } = JSON;
const { hasOwn, keys } = Object;

export interface SkillFunctions {
  readonly render: (skillId: string, inputJson: string) => string;
  readonly prompt: (skillId: string, inputJson: string) => string;
  readonly invariants: (skillId: string, inputJson: string) => string;
  readonly describeSkills: () => string;
}

interface CheckResult {
  readonly holds: boolean;
  readonly error: string | null;
}

export function skillFunctions(module: SelectionModule, messageOf: (error: unknown) => string, confusablePrototypes: ConfusablePrototypes): SkillFunctions {
  const skills = module._SKILLS || {};
  const invariants = module._INVARIANTS || {};

  const skillOf = (skillId: string): CompiledSkill => {
    if (!hasOwn(skills, skillId)) throw new Error('the module has no skill `' + skillId + '`');
    return skills[skillId]!;
  };

  const render = (skillId: string, inputJson: string): string => {
    const skill = skillOf(skillId);
    const input = deepFreeze(parse(inputJson) as unknown);
    for (const template of skill.templates) {
      try {
        if (template.when !== undefined && template.when(input) !== true) continue;
        return stringify({ ok: true, template: template.name, payload: template.render(input) });
      } catch (error) {
        return stringify({ ok: false, template: template.name, message: messageOf(error) });
      }
    }
    return stringify({ ok: false, template: null, message: 'no template of skill `' + skillId + '` applies' });
  };

  const prompt = (skillId: string, inputJson: string): string => {
    const skill = skillOf(skillId);
    if (skill.prompt === null) return stringify({ ok: false, message: 'skill `' + skillId + '` has no prompt' });
    try {
      return stringify({ ok: true, prompt: skill.prompt(deepFreeze(parse(inputJson) as unknown)) });
    } catch (error) {
      return stringify({ ok: false, message: messageOf(error) });
    }
  };

  // Text as a reader sees it, in each of the host's forms (skills/text/text-forms.ts), by the
  // host's own functions (bundled here from the same files): host and invariants fold text alike.
  const forms = [(read: ReturnType<typeof readText>) => read, compacted, spacedOut];
  // The folds of one call: each text is read once, however many checks compare it.
  const foldsOfOneCall = (): ((text: string) => string)[] => {
    const read = new Map<string, ReturnType<typeof readText>>();
    const readOnce = (text: string): ReturnType<typeof readText> => {
      let form = read.get(text);
      if (form === undefined) read.set(text, (form = readText(text, confusablePrototypes)));
      return form;
    };
    return forms.map((form) => (text: string) => form(readOnce(text)).text);
  };

  // Whether a check holds; a check that throws does not hold.
  const holds = (check: ModuleFunction, ...args: unknown[]): CheckResult => {
    try {
      return { holds: check(...args) === true, error: null };
    } catch (error) {
      return { holds: false, error: messageOf(error) };
    }
  };

  // Every compiled invariant of the skill over one output: whether it holds as written and as
  // read (in each form; the first form in which it fails is reported).
  const checkInvariants = (skillId: string, inputJson: string): string => {
    skillOf(skillId);
    const input = deepFreeze(parse(inputJson) as unknown);
    const checks: readonly CompiledInvariant[] = hasOwn(invariants, skillId) ? invariants[skillId]! : [];
    const folds = foldsOfOneCall();
    return stringify(
      checks.map((invariant) => ({
        id: invariant.id,
        as_written: holds(invariant.check, input),
        as_read:
          typeof invariant.check_folded === 'function'
            ? (folds.map((fold) => holds(invariant.check_folded as ModuleFunction, input, fold)).find((result) => !result.holds) ?? { holds: true, error: null })
            : { holds: true, error: null },
      })),
    );
  };

  // Each skill's contract as data (no functions): what the host validates and executes by.
  const describeSkills = (): string => {
    const described: Record<string, unknown> = {};
    for (const id of keys(skills)) {
      const skill = skills[id]!;
      described[id] = {
        version: skill.version,
        type: skill.type,
        description: skill.description,
        has_prompt: skill.prompt !== null,
        timeout_ms: skill.timeout_ms,
        hard_limit_ms: skill.hard_limit_ms,
        fallback: skill.fallback,
        action_metadata_fields: skill.action_metadata_fields,
        user_state_fields: skill.user_state_fields,
        output_schema: skill.output_schema,
        prohibitions: skill.prohibitions,
        invariants: (hasOwn(invariants, id) ? invariants[id]! : []).map((invariant) => ({ id: invariant.id, description: invariant.description, source: invariant.source })),
        templates: skill.templates.map((template) => template.name),
      };
    }
    return stringify(described);
  };

  return { render, prompt, invariants: checkInvariants, describeSkills };
}
