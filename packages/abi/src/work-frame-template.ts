/**
 * The work_frame fields an action's `on STATUS { … }` block sets (docs/spec/adjudication.md
 * §5.1): the checked model holds them, the generated module's `_ACTIONS` carries them, and the
 * runtime fills in every field a template leaves out from the status's default.
 */
import { childPath, pathText, type AbiProblems } from './abi-problem.js';
import { checkString, checkStrings, optional, shape, type Check, type JsonObject } from './checks.js';
import type { WorkFrameTemplate } from './module-declarations.js';
import { RULE_OUTCOMES, type RuleOutcome } from './rule-classes.js';

/** Declared once, as every generated module declares it (module-declarations.ts). */
export type { WorkFrameTemplate };

/** The template's fields that hold one text. */
export const WORK_FRAME_TEXT_FIELDS = ['mode', 'next_action', 'next_human_owner'] as const;
/** The template's fields that hold a list of texts. */
export const WORK_FRAME_LIST_FIELDS = ['allowed_actions', 'forbidden_actions', 'required_output'] as const;

/** An action's templates, by the status they apply to. */
export type WorkFrameTemplates = { readonly [S in RuleOutcome]?: WorkFrameTemplate };

export const checkWorkFrameTemplate: Check<WorkFrameTemplate> = shape((object: JsonObject, path: string, problems: AbiProblems) => {
  for (const key of WORK_FRAME_TEXT_FIELDS) optional(object, key, path, problems, checkString);
  for (const key of WORK_FRAME_LIST_FIELDS) optional(object, key, path, problems, checkStrings);
});

export const checkWorkFrameTemplates: Check<WorkFrameTemplates> = shape((object, path, problems) => {
  for (const [status, template] of Object.entries(object)) {
    const at = childPath(path, status);
    if ((RULE_OUTCOMES as readonly string[]).includes(status)) checkWorkFrameTemplate(template, at, problems);
    else problems.add('VALUE_NOT_ALLOWED', at, `${pathText(at)} is a template for an unknown status, expected one of ${RULE_OUTCOMES.join(', ')}`);
  }
});

/** The template's fields and nothing else a checked object carries: a template is spread into a decision's work_frame. */
export function workFrameTemplateFields(template: WorkFrameTemplate): WorkFrameTemplate {
  const { mode, next_action, allowed_actions, forbidden_actions, required_output, next_human_owner } = template;
  return {
    ...(mode !== undefined && { mode }),
    ...(next_action !== undefined && { next_action }),
    ...(allowed_actions !== undefined && { allowed_actions }),
    ...(forbidden_actions !== undefined && { forbidden_actions }),
    ...(required_output !== undefined && { required_output }),
    ...(next_human_owner !== undefined && { next_human_owner }),
  };
}
