/**
 * A deterministic skill's templates against its own output schema (docs/spec/skill-contract.md §6: a fallback's output
 * is "guaranteed to pass validation"). The rules, each sound for every input the skill's
 * declared types allow:
 *
 * - a template renders text, so it may set only string and enum fields;
 * - an enum field takes a literal member, written out;
 * - a string field's every possible rendering has a length within its bounds: the literal
 *   text counts as written, each `{expression}` from the shortest to the longest text its type
 *   can render (a `string(..60)` up to 60 characters, a `string` without a maximum without
 *   limit, an int of its range by its digits, a bool 4 or 5, a timestamp 24 to 27);
 * - the first template without a `when` is chosen whenever the ones before it are not, so a
 *   skill needs one (else some input finds no template) and any template after it is never
 *   chosen (ADEC5008).
 */
import { formatExpr, type SkillTemplateDecl, type TemplateString } from '@adec/grammar';
import { counted, type Span } from '@adec/diagnostics';
import { formatType, type CheckedSkillTemplate, type CheckedTemplate, type NumericRange, type RecordField, type Type } from '../model/index.js';
import type { DiagnosticSink } from './checker-context.js';
import { reportIfNotMember } from './enum-literals.js';
import { charLength } from './char-length.js';
import { unwrapOptional } from './type-relations.js';

/** The shortest and longest text a template can render, in characters; `max` may be Infinity. */
interface LengthRange {
  readonly min: number;
  readonly max: number;
  /** The first interpolation with no maximum length, to name in the message. */
  readonly unbounded?: string;
}

/** Longest text of a safe integer: `-9007199254740991`. */
const INT_TEXT_MAX = 17;
/** Longest text of a float: `-1.2345678901234567e-308`. */
const FLOAT_TEXT_MAX = 24;

export interface SkillWording {
  readonly skill: string;
  readonly kind: string;
}

/** Each field a template sets, against the output field of that name. */
export function checkTemplateOutput(
  template: SkillTemplateDecl,
  checked: CheckedSkillTemplate['fields'],
  output: readonly RecordField[],
  wording: SkillWording,
  sink: DiagnosticSink,
): void {
  for (const field of checked) {
    const declared = output.find((f) => f.name === field.name);
    const written = template.fields.find((f) => f.name.name === field.name)?.template;
    if (declared === undefined || written === undefined) continue;
    checkField(template.name.name, field.name, unwrapOptional(declared.type), written, field.template, wording, sink);
  }
}

function checkField(templateName: string, field: string, type: Type, written: TemplateString, checked: CheckedTemplate, wording: SkillWording, sink: DiagnosticSink): void {
  const report = (problem: string, help?: string) =>
    sink.report('ADEC4023', written.span, { ...wording, problem: `template \`${templateName}\` ${problem}` }, help === undefined ? {} : { help });
  switch (type.kind) {
    case 'error':
      return;
    case 'enum': {
      const text = checked.parts.length === 1 && typeof checked.parts[0] === 'string' ? checked.parts[0] : checked.parts.length === 0 ? '' : undefined;
      if (text === undefined) report(`sets enum field \`${field}\` from an interpolation, which may not be one of its members`, `write the member out: ${type.members.map((m) => `"${m}"`).join(', ')}`);
      else reportIfNotMember(sink, text, written, type);
      return;
    }
    case 'string': {
      // An interpolation with an error of its own (reported at it) renders nothing to measure.
      if (checked.parts.some((part) => typeof part !== 'string' && part.type.kind === 'error')) return;
      const rendered = renderedLength(checked, written);
      const bounds = type.length;
      if (bounds?.max !== undefined && rendered.max > bounds.max) {
        if (rendered.unbounded !== undefined) {
          report(`may render \`${field}\` longer than its maximum of ${bounds.max} characters: \`${rendered.unbounded}\` is a string with no maximum length`, 'declare a maximum length for it in the skill\'s input, e.g. `string(..60)`');
        } else {
          report(`${renders(rendered)} \`${field}\` in ${rendered.min === rendered.max ? '' : 'up to '}${counted(rendered.max, 'character')}, more than its maximum of ${bounds.max}`);
        }
      } else if (bounds?.min !== undefined && rendered.min < bounds.min) {
        report(`${renders(rendered)} \`${field}\` in ${counted(rendered.min, 'character')}, fewer than its minimum of ${bounds.min}`);
      }
      return;
    }
    default:
      report(`sets \`${field}\`, a ${formatType(type)} field: a template renders text, so it sets only string and enum fields`);
  }
}

/** A text of one length always renders so; any other may. */
function renders(rendered: LengthRange): string {
  return rendered.min === rendered.max ? 'renders' : 'may render';
}

function renderedLength(checked: CheckedTemplate, written: TemplateString): LengthRange {
  let min = 0;
  let max = 0;
  let unbounded: string | undefined;
  checked.parts.forEach((part, index) => {
    if (typeof part === 'string') {
      min += charLength(part);
      max += charLength(part);
      return;
    }
    const text = textLength(part.type);
    min += text.min;
    max += text.max;
    const ast = written.parts[index];
    if (text.max === Infinity && unbounded === undefined && ast !== undefined && ast.kind !== 'TemplateText') unbounded = formatExpr(ast);
  });
  return { min, max, ...(unbounded !== undefined && { unbounded }) };
}

/** The shortest and longest text a value of `type` renders as (runtime-helpers.ts, emitTemplate). */
function textLength(type: Type): { min: number; max: number } {
  switch (type.kind) {
    case 'string':
      return { min: type.length?.min ?? 0, max: type.length?.max ?? Infinity };
    case 'enum': {
      const lengths = type.members.map(charLength);
      return { min: Math.min(...lengths), max: Math.max(...lengths) };
    }
    case 'bool':
      return { min: 4, max: 5 };
    case 'int':
      return intTextLength(type.range);
    case 'float':
      return { min: 1, max: FLOAT_TEXT_MAX };
    case 'timestamp':
      // `YYYY-MM-DDTHH:MM:SS.mmmZ`, the year wider outside 0000..9999.
      return { min: 24, max: 27 };
    case 'duration':
      // `1d` … `-9007199254740991ms`.
      return { min: 2, max: 19 };
    default:
      // Not interpolatable (ADEC3012): nothing to claim.
      return { min: 0, max: Infinity };
  }
}

function intTextLength(range: NumericRange | undefined): { min: number; max: number } {
  const low = range?.min;
  const high = range?.max;
  if (low === undefined || high === undefined) return { min: low !== undefined && low > 0 ? String(low).length : 1, max: INT_TEXT_MAX };
  const [a, b] = [String(low).length, String(high).length];
  return { min: low > 0 ? a : high < 0 ? b : 1, max: Math.max(a, b) };
}

/**
 * ADEC4023 when no template is without a `when`, ADEC5008 for each template after the first
 * one without a `when`.
 */
export function checkTemplateOrder(templates: readonly SkillTemplateDecl[], wording: SkillWording, skillSpan: Span, sink: DiagnosticSink): void {
  const fallback = templates.find((t) => t.when === undefined);
  if (fallback === undefined) {
    if (templates.length > 0) {
      sink.report('ADEC4023', skillSpan, { ...wording, problem: 'has no template without a `when`: when no condition holds, it has nothing to answer' }, { help: 'add a last template with no condition, e.g. `template default { … }`' });
    }
    return;
  }
  for (const unreachable of templates.slice(templates.indexOf(fallback) + 1)) {
    sink.report('ADEC5008', unreachable.name.span, { template: unreachable.name.name, reason: `template \`${fallback.name.name}\` before it has no \`when\`, so it is always chosen first` });
  }
}
