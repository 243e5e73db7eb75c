import { typecheckModule } from './typecheck-module.js';

/**
 * A small module in the shape the generator emits. Type-checking it once loads and binds the
 * ES2022 lib files and lets V8 compile the TypeScript checker's hot paths, which otherwise
 * costs a cold build about 1 s (bench/RESULTS.md). The generator worker does this while the
 * main thread is still parsing and checking the world.
 */
const WARM_UP_MODULE = `
export type RuleOutcome = "GREEN" | "GREEN-SKIP" | "YELLOW" | "RED";
export interface RuleResult { readonly matched: boolean; readonly reason?: string; }
export type RulePredicate = (ctx: never) => RuleResult;
export interface WarmUpContext {
  readonly tier: "bronze" | "silver" | "gold";
  readonly amount: number;
  readonly tags: readonly string[];
  readonly note: string;
  readonly score?: number | null;
}
function isIn(element: unknown, list: readonly unknown[]): boolean {
  return list.includes(element);
}
const RE_0 = /(urgent|refund)\\s+\\d+/i;
export const _RULE_OUTCOME: Readonly<Record<string, RuleOutcome>> = { a: "RED", b: "GREEN" };
export const _RULE_FUNCTIONS: Readonly<Record<string, RulePredicate>> = {
${Array.from(
  { length: 40 },
  (_, i) => `  r${i}: (ctx: WarmUpContext): RuleResult => {
    const matched: boolean = ctx.tier === "gold" && ctx.amount >= ${i} && ctx.amount < ${i * 7 + 100} && (isIn("vip", ctx.tags) || ctx.note.includes("x") || RE_0.test(ctx.note)) && (ctx.score ?? 0) > ${i % 9};
    return matched ? { matched, reason: \`amount \${String(ctx.amount)} for \${ctx.tier}\` } : { matched };
  },`,
).join('\n')}
};
`;

export function warmUpTypeChecker(): void {
  typecheckModule(WARM_UP_MODULE);
}
