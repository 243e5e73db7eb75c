/**
 * The checker (ARCHITECTURE.md pipeline step 2): names, types and semantics of a whole
 * world, every problem of the run reported together. It never throws on a bad world and
 * never stops at the first error; the checked world is returned only when there is none.
 *
 * Order: header → shared context → actions (context, rules, suppressions, work frames) →
 * skills → scenarios (which use skills, and fill their user_state) → tests (which use actions
 * and scenarios) → warnings. Analysis warnings (always-true conditions, unreachable rules,
 * risky patterns) run last, on a world that checked clean.
 */
import { sortDiagnostics, type Diagnostic } from '@adec/diagnostics';
import type { ActionDecl, ContextBlock, Declaration, ScenarioDecl, SkillDecl, SourceFile, TestDecl } from '@adec/grammar';
import type { CheckedWorld } from '../model/index.js';
import { analyzeWorld } from '../analyze/index.js';
import { DiagnosticSink } from './checker-context.js';
import type { BindingRecorder } from './name-bindings.js';
import { checkActions } from './check-action.js';
import { checkDerivations, contextScope, contextView, declareAttributes, reportDerivationCycles, type DeclaredAttribute } from './check-context.js';
import { checkHeader } from './check-header.js';
import { checkScenarios } from './check-scenario.js';
import { checkSkills } from './check-skill.js';
import { checkTests } from './check-test.js';
import { suppressionSpans } from './check-suppressions.js';
import { checkUserStateSources } from './user-state-sources.js';
import { checkActionMetadataSources } from './action-metadata-sources.js';
import { reportUnusedAttributes } from './unused-attributes.js';

export interface CheckWorldResult {
  /** Present exactly when no diagnostic is an error. */
  readonly world?: CheckedWorld;
  readonly diagnostics: Diagnostic[];
}

export interface CheckWorldOptions {
  /**
   * Run the warnings analysis on a world that checked clean (default true), and report unused
   * attributes. Off when the files had syntax errors: the AST holds placeholders where text was
   * missing or nested too deep, and a condition with a placeholder is no condition to judge.
   */
  readonly analyze?: boolean;
  /** Hears every name the checker declares and resolves (bind-world.ts); none by default. */
  readonly recorder?: BindingRecorder;
}

export function checkWorld(files: readonly SourceFile[], options: CheckWorldOptions = {}): CheckWorldResult {
  const sink = new DiagnosticSink(options.recorder, options.analyze === false);
  const declarations = files.flatMap((f) => f.declarations);
  const used = new Set<DeclaredAttribute>();
  const onUse = (attribute: DeclaredAttribute) => void used.add(attribute);

  const header = checkHeader(files, sink);

  const shared = declareAttributes(ofKind<ContextBlock>(declarations, 'ContextBlock'), contextView([]), sink);
  const sharedView = contextView(shared);
  sink.recorder?.scope('shared-context', undefined, contextScope(sharedView, () => undefined));
  checkDerivations(shared, sharedView, sink, onUse);
  reportDerivationCycles(shared, sink);

  const actionDecls = ofKind<ActionDecl>(declarations, 'ActionDecl');
  const { actions, infos: actionInfos } = checkActions(actionDecls, sharedView, sink, onUse);
  const { skills, infos: skillInfos } = checkSkills(ofKind<SkillDecl>(declarations, 'SkillDecl'), sink);
  const { scenarios, infos: scenarioInfos } = checkScenarios(ofKind<ScenarioDecl>(declarations, 'ScenarioDecl'), skillInfos, sink);
  checkActionMetadataSources(scenarioInfos.values(), skillInfos, sink);
  checkUserStateSources(scenarioInfos.values(), skillInfos, sink);
  const tests = checkTests(ofKind<TestDecl>(declarations, 'TestDecl'), { actions: actionInfos, scenarios: scenarioInfos, skills: new Map(skills.map((s) => [s.id, s])), onUse }, sink);

  const ownAttributes = [...actionInfos.values()].flatMap((info) => info.view.attributes.slice(shared.length));
  // After a syntax error the use may be in the text recovery skipped: no warning for it.
  if (options.analyze !== false) reportUnusedAttributes([...shared, ...ownAttributes], used, sink);

  if (sink.hasErrors || header === undefined) return { diagnostics: sortDiagnostics(sink.diagnostics) };
  const world: CheckedWorld = {
    header: header.identity,
    predicateTimeoutMs: header.predicateTimeoutMs,
    actions,
    skills,
    scenarios,
    tests,
  };
  const warnings = options.analyze === false ? [] : analyzeWorld(world, { suppressionAt: suppressionSpans(actionDecls) });
  return { world, diagnostics: sortDiagnostics([...sink.diagnostics, ...warnings]) };
}

function ofKind<T extends Declaration>(declarations: readonly Declaration[], kind: T['kind']): T[] {
  return declarations.filter((d): d is T => d.kind === kind);
}
