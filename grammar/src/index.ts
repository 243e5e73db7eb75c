/**
 * @adec/grammar — the world language: lexer, parser and the typed AST with spans.
 *
 * Guarantees to the checker: `parseSource` never throws; every syntax problem is a
 * diagnostic (ADEC1001–ADEC1009) with a precise span; the AST is well-formed even after
 * recovery (see cst-to-ast.ts for the placeholders used where text was missing).
 */
export * from './ast.js';
export { parseSource, type ParseResult } from './parse-source.js';
export { sourceTokens, type SourceToken } from './source-tokens.js';
export { serializedGrammar, syntaxDiagramsHtml } from './diagrams.js';
export { formatExpr, pathOf } from './print-expr.js';
export { BINARY_PRECEDENCE, PRECEDENCE } from './precedence.js';
export { EXPRESSION_KEYWORDS } from './tokens.js';
export { durationMilliseconds, durationUnitsHelp } from './lexer.js';
