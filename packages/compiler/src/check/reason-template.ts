/**
 * What a rule's `reason` can read as, for tests that expect a reason: the template's literal
 * text around its interpolations, each interpolation reading as its type renders it (the
 * generated module's own formatting: an int as digits, a duration in words, a timestamp in ISO
 * 8601, an enum as one of its members). A test expecting text no values could give never passes
 * (`"Wait 30d"` against `"Wait {cooldown}"`, which reads `"Wait 30 days"`).
 */
import type { CheckedExpr, CheckedTemplate, Type } from '../model/index.js';

/** Whether `template` reads as `text` for some values of its interpolations. */
export function templateCanRead(template: CheckedTemplate, text: string): boolean {
  return new RegExp(`^${template.parts.map(partPattern).join('')}$`).test(text);
}

/** The template as its author reads it, each interpolation shown as `{…}`. */
export function templateOutline(template: CheckedTemplate): string {
  return template.parts.map((part) => (typeof part === 'string' ? part : '{…}')).join('');
}

/** What the test's author may have meant to write, when an interpolation renders in a form of its own. */
export function renderingNotes(template: CheckedTemplate): string[] {
  const kinds = new Set(template.parts.flatMap((part) => (typeof part === 'string' ? [] : [presentKind(part.type)])));
  return [
    ...(kinds.has('duration') ? ['a duration reads in words in a reason: `30 days`, `2 hours 30 minutes`'] : []),
    ...(kinds.has('timestamp') ? ['a timestamp reads in ISO 8601 in a reason: `2026-03-01T09:00:00.000Z`'] : []),
  ];
}

function partPattern(part: string | CheckedExpr): string {
  return typeof part === 'string' ? escaped(part) : `(?:${valuePattern(part.type)})`;
}

const DURATION_UNIT = '\\d+ (?:day|hour|minute|second|millisecond)s?';

/** The texts a value of `type` renders as in a template. */
function valuePattern(type: Type): string {
  switch (type.kind) {
    case 'int':
      return '-?\\d+(?:e\\+\\d+)?';
    case 'float':
      // JavaScript's own String(number), division by zero included.
      return '-?(?:\\d+(?:\\.\\d+)?(?:e[+-]\\d+)?|Infinity)|NaN';
    case 'bool':
      return 'true|false';
    case 'duration':
      return `-?${DURATION_UNIT}(?: ${DURATION_UNIT})*`;
    case 'timestamp':
      return '[+-]?\\d{4,6}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';
    case 'enum':
      return type.members.map(escaped).join('|');
    case 'null':
      return 'null';
    case 'optional':
      return `${valuePattern(type.inner)}|null`;
    default:
      // A string, or a value whose type could not be checked: any text.
      return '[\\s\\S]*';
  }
}

function presentKind(type: Type): Type['kind'] {
  return type.kind === 'optional' ? presentKind(type.inner) : type.kind;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
