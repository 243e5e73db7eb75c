/**
 * @adec/language-server — the adec language server (LSP over stdio) and the symbol index
 * it answers from. Guarantees to an editor: diagnostics of the whole world as the author
 * types (the compiler's codes, severities, spans and notes), hover with types and doc
 * comments, go to definition and references for every name the checker resolves,
 * completion of names in scope and keywords; no input makes it stop answering.
 */
export { main } from './main.js';
export { startServer, DEFAULT_DEBOUNCE_MS } from './server.js';
export type { ServerOptions } from './server.js';
export { buildWorldIndex } from './symbols/world-index.js';
export type { WorldIndex, NameScope, ActionEntry, SkillEntry, ScenarioEntry } from './symbols/world-index.js';
export type { WorldSymbol, SymbolKind, SymbolOccurrence } from './symbols/world-symbol.js';
export { completions } from './features/completion.js';
export type { CompletionInput } from './features/completion.js';
export { hover } from './features/hover.js';
export { toLspDiagnostic } from './features/diagnostics.js';
export { ALL_KEYWORDS, CLAUSE_KEYWORDS, EXPRESSION_KEYWORDS, TYPE_NAMES } from './features/keywords.js';
export { BUILTIN_FUNCTIONS } from './symbols/builtins.js';
