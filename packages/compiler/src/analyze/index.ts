/**
 * The analysis phase: warnings over a checked world (always-true/false conditions, rules
 * that can never decide, patterns prone to catastrophic backtracking) and the translation
 * of SEC patterns to JavaScript regular expressions the checker validates with.
 * See README.md for what each analysis decides and where it stops.
 */
export { analyzeWorld } from './analyze-world.js';
export { backtrackingRisk } from './regex/backtracking.js';
export { translatePattern } from './regex/translate-pattern.js';
export type { TranslatedPattern } from './regex/translate-pattern.js';
export { evaluate, UNKNOWN } from './evaluate.js';
export type { Environment, Value } from './evaluate.js';
