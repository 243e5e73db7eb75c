import { parseSource, type Expr, type SourceFile } from '@adec/grammar';
import type { Diagnostic } from '@adec/diagnostics';

/** Parses `text` as `test.adec`. */
export function parse(text: string): { file: SourceFile; diagnostics: Diagnostic[] } {
  return parseSource('test.adec', text);
}

/** The AST without spans, for comparing shapes. */
export function shape(node: unknown): unknown {
  return JSON.parse(JSON.stringify(node, (key, value: unknown) => (key === 'span' || key === 'operatorSpan' ? undefined : value))) as unknown;
}

/** Diagnostics as `line:column code message`, the way a reviewer reads them. */
export function problems(text: string): string[] {
  return parse(text).diagnostics.map((d) => `${d.span.line}:${d.span.column} ${d.code} ${d.message}`);
}

/** The expression of `when` in a one-rule action: `action a { rule r { when <expr> } }`. */
export function whenExpr(expr: string): Expr {
  const { file, diagnostics } = parse(`action a { rule r { when ${expr} } }`);
  if (diagnostics.length > 0) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  const action = file.declarations[0];
  if (action?.kind !== 'ActionDecl') throw new Error('no action');
  const clause = action.rules[0]?.clauses[0];
  if (clause?.kind !== 'WhenClause') throw new Error('no when clause');
  return clause.condition;
}

/** A compact rendering of an expression tree: `(a or (b and (not c)))`. */
export function render(expr: Expr): string {
  switch (expr.kind) {
    case 'NumberLiteral':
      return String(expr.value);
    case 'StringLiteral':
      return JSON.stringify(expr.value);
    case 'DurationLiteral':
      return `${expr.milliseconds}ms`;
    case 'BooleanLiteral':
      return String(expr.value);
    case 'NullLiteral':
      return 'null';
    case 'NameExpr':
      return expr.name;
    case 'MemberExpr':
      return `${render(expr.object)}.${expr.property.name}`;
    case 'CallExpr':
      return `${expr.callee.name}(${expr.args.map(render).join(', ')})`;
    case 'ListExpr':
      return `[${expr.items.map(render).join(', ')}]`;
    case 'UnaryExpr':
      return `(${expr.operator === 'not' ? 'not ' : '-'}${render(expr.operand)})`;
    case 'BinaryExpr':
      return `(${render(expr.left)} ${expr.operator} ${render(expr.right)})`;
    case 'NullCheckExpr':
      return `(${render(expr.operand)} IS ${expr.negated ? 'NOT ' : ''}NULL)`;
    case 'LengthExpr':
      return `(${render(expr.operand)} LENGTH ${expr.operator} ${render(expr.limit)})`;
    case 'ConditionalExpr':
      return `(if ${render(expr.condition)} then ${render(expr.consequent)}${expr.alternate ? ` else ${render(expr.alternate)}` : ''})`;
    case 'MissingExpr':
      return '<missing>';
  }
}

/** The source text a span covers. */
export function sliceOf(text: string, span: { offset: number; endOffset: number }): string {
  return text.slice(span.offset, span.endOffset);
}
