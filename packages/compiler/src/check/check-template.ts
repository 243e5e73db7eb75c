/**
 * Interpolated strings (`reason`, `prompt`, skill templates): each `{expression}` must
 * render naturally as text, so it is a scalar or an enum member, never a list or record,
 * and never a value that may be absent (`{x ?? "unknown"}` reads well, `null` does not).
 */
import type { TemplateString } from '@adec/grammar';
import { formatType, type CheckedExpr, type CheckedTemplate } from '../model/index.js';
import type { DiagnosticSink } from './checker-context.js';
import { createExprChecker } from './check-expr.js';
import { NOTHING_NARROWED, type Narrowed } from './narrowing.js';
import type { ExprScope } from './scope.js';
import { isError, isInterpolatable } from './type-relations.js';

/** `narrowed`: paths known present wherever the template renders (a rule's reason: what its `when` proves). */
export function checkTemplate(template: TemplateString, scope: ExprScope, sink: DiagnosticSink, narrowed: Narrowed = NOTHING_NARROWED): CheckedTemplate {
  const checker = createExprChecker(scope, sink);
  const parts: (string | CheckedExpr)[] = [];
  for (const part of template.parts) {
    if (part.kind === 'TemplateText') {
      parts.push(part.text);
      continue;
    }
    const checked = checker.check(part, narrowed);
    const type = checker.presentType(checked, part);
    if (!isError(type) && !isInterpolatable(type)) {
      sink.report('ADEC3012', part.span, { type: formatType(type) }, { label: `this is ${formatType(type)}` });
    }
    parts.push(checked);
  }
  return { parts, span: template.span };
}
