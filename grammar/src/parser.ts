/**
 * The grammar of the world language, as a Chevrotain `CstParser`.
 *
 * Why a CST parser and not `EmbeddedActionsParser`: the grammar stays pure grammar (it is
 * what the syntax diagrams are drawn from), and error recovery yields partial CST nodes that
 * cst-to-ast.ts turns into well-formed AST nodes with `MissingExpr` placeholders in one
 * place, instead of every embedded action having to cope with half-built values during
 * recovery and grammar recording. Building the CST costs little: on the 10,000-rule
 * synthetic world, garbage collection is ~10% of parse time; what mattered was loading
 * Chevrotain (see chevrotain.ts), V8 dictionary-mode `children` objects (see
 * `cstInvocationStateUpdate` below) and the span walks of cst-to-ast.ts.
 *
 * Recovery is enabled: a broken clause or declaration is reported and parsing resumes at the
 * next clause or declaration, so one run reports every syntax error of a file.
 *
 * The precedence table of expressions is in ast.ts and grammar/README.md.
 */
import type { CstNode, ParserMethod } from 'chevrotain';
import { CstParser, tokenMatcher } from './chevrotain.js';
import { syntaxErrorMessages } from './syntax-errors.js';
import * as t from './tokens.js';

type Rule = ParserMethod<[], CstNode>;

export interface WorldParserOptions {
  /**
   * Run Chevrotain's grammar validations (ambiguities, left recursion, …) while building the
   * parser. They only find mistakes in this file, never in a world, and cost about half of the
   * parser's construction, which every `adec` process pays: so they are off in production
   * and on in grammar/test/parser-validation.test.ts, which fails on any grammar defect.
   */
  readonly validate?: boolean;
}

export class WorldParser extends CstParser {
  constructor(options: WorldParserOptions = {}) {
    super(t.allTokens, {
      recoveryEnabled: true,
      nodeLocationTracking: 'none', // spans come from tokens: see cst-to-ast.ts
      maxLookahead: 3,
      errorMessageProvider: syntaxErrorMessages,
      skipValidations: !options.validate,
    });
    this.performSelfAnalysis();
  }

  /**
   * Replaces Chevrotain's (internal, 11.x) CST node creation to give `children` an ordinary
   * object instead of `Object.create(null)`: V8 keeps prototype-less objects in dictionary
   * mode, which made every `children[key]` lookup and every walk over a node's keys
   * (cst-to-ast.ts) a hash-table operation; plain literals get hidden classes. No rule, label
   * or token name is a property of Object.prototype (`toString`, `constructor`, …), so
   * Chevrotain's `children[name] === undefined` checks behave as before. The node is the same
   * otherwise; if Chevrotain stops calling this method, nothing changes but the speed.
   */
  cstInvocationStateUpdate(fullRuleName: string): void {
    const stack = (this as unknown as { CST_STACK: CstNode[] }).CST_STACK;
    stack.push({ name: fullRuleName, children: {} });
  }

  // ── File and declarations ───────────────────────────────────────────────

  sourceFile: Rule = this.RULE('sourceFile', () => {
    this.MANY(() => this.SUBRULE(this.declaration));
  });

  declaration: Rule = this.RULE('declaration', () => {
    this.OR({
      ERR_MSG: 'a declaration',
      DEF: [
        { ALT: () => this.SUBRULE(this.worldHeader) },
        { ALT: () => this.SUBRULE(this.contextBlock) },
        { ALT: () => this.SUBRULE(this.actionDecl) },
        { ALT: () => this.SUBRULE(this.skillDecl) },
        { ALT: () => this.SUBRULE(this.scenarioDecl) },
        { ALT: () => this.SUBRULE(this.testDecl) },
      ],
    });
  });

  /** `world { org "acme" domain "hr.benefits" version "1.4.0" }` */
  worldHeader: Rule = this.RULE('worldHeader', () => {
    this.CONSUME(t.World);
    this.CONSUME(t.LCurly);
    this.MANY(() => this.SUBRULE(this.worldSetting));
    this.CONSUME(t.RCurly);
  });

  worldSetting: Rule = this.RULE('worldSetting', () => {
    this.CONSUME(t.Name);
    this.OR([{ ALT: () => this.CONSUME(t.StringLiteral) }, { ALT: () => this.CONSUME(t.Duration) }]);
  });

  /** `context { supplied age: int  computed adult: bool = age >= 18 }` */
  contextBlock: Rule = this.RULE('contextBlock', () => {
    this.CONSUME(t.Context);
    this.CONSUME(t.LCurly);
    this.MANY(() => this.SUBRULE(this.contextAttribute));
    this.CONSUME(t.RCurly);
  });

  contextAttribute: Rule = this.RULE('contextAttribute', () => {
    this.OR([
      { ALT: () => this.CONSUME(t.Supplied) },
      { ALT: () => this.CONSUME(t.System) },
      { ALT: () => this.CONSUME(t.Computed) },
    ]);
    this.CONSUME(t.Name);
    this.CONSUME(t.Colon);
    this.SUBRULE(this.typeExpr);
    this.OPTION(() => {
      this.CONSUME(t.Assign);
      this.SUBRULE(this.expression);
    });
  });

  // ── Actions and rules ───────────────────────────────────────────────────

  actionDecl: Rule = this.RULE('actionDecl', () => {
    this.CONSUME(t.Action);
    this.CONSUME(t.Name);
    this.CONSUME(t.LCurly);
    this.MANY(() =>
      this.OR([
        { ALT: () => this.SUBRULE(this.aggregation) },
        { ALT: () => this.SUBRULE(this.contextBlock) },
        { ALT: () => this.SUBRULE(this.ruleDecl) },
        { ALT: () => this.SUBRULE(this.workFrameTemplate) },
      ]),
    );
    this.CONSUME(t.RCurly);
  });

  /** `aggregate vote_of_n 2` */
  aggregation: Rule = this.RULE('aggregation', () => {
    this.CONSUME(t.Aggregate);
    this.CONSUME(t.Name);
    this.OPTION(() => this.CONSUME(t.NumberToken));
  });

  ruleDecl: Rule = this.RULE('ruleDecl', () => {
    this.CONSUME(t.Rule);
    this.CONSUME(t.Name);
    this.CONSUME(t.LCurly);
    this.MANY(() => this.SUBRULE(this.ruleClause));
    this.CONSUME(t.RCurly);
  });

  ruleClause: Rule = this.RULE('ruleClause', () => {
    this.OR({
      ERR_MSG: 'a rule clause',
      DEF: [
        { ALT: () => (this.CONSUME(t.Outcome), this.SUBRULE(this.word)) },
        { ALT: () => (this.CONSUME(t.Severity), this.SUBRULE1(this.word)) },
        { ALT: () => (this.CONSUME(t.AppliesWhen), this.SUBRULE(this.expression)) },
        { ALT: () => (this.CONSUME(t.When), this.SUBRULE1(this.expression)) },
        { ALT: () => (this.CONSUME(t.Reason), this.CONSUME(t.StringLiteral)) },
        {
          ALT: () => {
            this.CONSUME(t.Suppresses);
            this.AT_LEAST_ONE_SEP({ SEP: t.Comma, DEF: () => this.CONSUME(t.Name) });
          },
        },
        { ALT: () => (this.CONSUME(t.Timeout), this.CONSUME(t.Duration)) },
        { ALT: () => (this.CONSUME(t.Weight), this.CONSUME(t.NumberToken)) },
      ],
    });
  });

  /**
   * An outcome, severity, status or mode spelling, validated by the checker. It is read as
   * broadly as a mistyped one can be written (`GREN-SKIP`, a severity `2`), so the checker
   * reports it as one word with a did-you-mean, not the parser as a stray `-` or number.
   */
  word: Rule = this.RULE('word', () => {
    this.OR([
      { ALT: () => this.CONSUME(t.GreenSkip) },
      {
        ALT: () => {
          this.CONSUME(t.Name);
          this.OPTION(() => {
            this.CONSUME(t.Minus);
            this.CONSUME1(t.Name);
          });
        },
      },
      { ALT: () => this.CONSUME(t.NumberToken) },
      { ALT: () => this.CONSUME(t.StringLiteral) },
    ]);
  });

  /** `on YELLOW { next_action "retry"  allowed_actions ["a", "b"] }` */
  workFrameTemplate: Rule = this.RULE('workFrameTemplate', () => {
    this.CONSUME(t.On);
    this.SUBRULE(this.word);
    this.CONSUME(t.LCurly);
    this.MANY(() => this.SUBRULE(this.workFrameField));
    this.CONSUME(t.RCurly);
  });

  workFrameField: Rule = this.RULE('workFrameField', () => {
    this.CONSUME(t.Name);
    this.OR({
      DEF: [
        { ALT: () => this.CONSUME(t.StringLiteral) },
        { ALT: () => this.SUBRULE(this.stringList) },
        // `mode blocked`: a value left unquoted, read as the word it is so the AST builder can
        // say "quote it" once, instead of the next field being misread as a value. Not when the
        // word is itself a field with its value (`mode next_action "x"`: `mode` has none).
        { GATE: () => !tokenMatcher(this.LA(2), t.StringLiteral) && !tokenMatcher(this.LA(2), t.LBracket), ALT: () => this.CONSUME2(t.Name, { LABEL: 'unquoted' }) },
      ],
      // What a value may be: the unquoted word is a mistake, not an option to offer.
      ERR_MSG: 'a string or `[`',
    });
  });

  stringList: Rule = this.RULE('stringList', () => {
    this.CONSUME(t.LBracket);
    this.MANY(() => {
      this.CONSUME(t.StringLiteral);
      this.OPTION(() => this.CONSUME(t.Comma));
    });
    this.CONSUME(t.RBracket);
  });

  // ── Skills ──────────────────────────────────────────────────────────────

  skillDecl: Rule = this.RULE('skillDecl', () => {
    this.CONSUME(t.Skill);
    this.CONSUME(t.Name);
    this.CONSUME(t.LCurly);
    this.MANY(() => this.SUBRULE(this.skillMember));
    this.CONSUME(t.RCurly);
  });

  skillMember: Rule = this.RULE('skillMember', () => {
    this.OR({
      ERR_MSG: 'a skill member',
      DEF: [
        { ALT: () => (this.CONSUME(t.Version), this.CONSUME(t.StringLiteral)) },
        { ALT: () => (this.CONSUME(t.Type), this.SUBRULE(this.word)) },
        { ALT: () => (this.CONSUME(t.Description), this.CONSUME1(t.StringLiteral)) },
        { ALT: () => (this.CONSUME(t.Prompt), this.CONSUME2(t.StringLiteral)) },
        {
          ALT: () => {
            this.CONSUME(t.Timeout);
            this.CONSUME(t.Duration);
            this.OPTION(() => {
              this.CONSUME(t.HardLimit);
              this.CONSUME1(t.Duration);
            });
          },
        },
        { ALT: () => (this.CONSUME(t.Fallback), this.CONSUME(t.Name)) },
        { ALT: () => (this.CONSUME(t.ActionMetadata), this.SUBRULE(this.fieldBlock)) },
        { ALT: () => (this.CONSUME(t.UserState), this.SUBRULE1(this.fieldBlock)) },
        { ALT: () => (this.CONSUME(t.Output), this.SUBRULE2(this.fieldBlock)) },
        { ALT: () => this.SUBRULE(this.invariant) },
        { ALT: () => this.SUBRULE(this.prohibit) },
        { ALT: () => this.SUBRULE(this.skillTemplate) },
      ],
    });
  });

  /** `invariant "FIT-001" "…": payload.rationale CONTAINS "yoga"` */
  invariant: Rule = this.RULE('invariant', () => {
    this.CONSUME(t.Invariant);
    this.CONSUME(t.StringLiteral);
    this.CONSUME1(t.StringLiteral);
    this.CONSUME(t.Colon);
    this.SUBRULE(this.expression);
  });

  /** `prohibit "FIT-PROHIB-001" "(?i)(injury|pain)" "Medical safety"` */
  prohibit: Rule = this.RULE('prohibit', () => {
    this.CONSUME(t.Prohibit);
    this.CONSUME(t.StringLiteral);
    this.CONSUME1(t.StringLiteral);
    this.CONSUME2(t.StringLiteral);
  });

  /** `template high when user_state.level > 0.7 { rationale: "…" }` */
  skillTemplate: Rule = this.RULE('skillTemplate', () => {
    this.CONSUME(t.Template);
    this.CONSUME(t.Name);
    this.OPTION(() => {
      this.CONSUME(t.When);
      this.SUBRULE(this.expression);
    });
    this.CONSUME(t.LCurly);
    this.MANY(() => {
      this.SUBRULE(this.templateField);
      this.OPTION1(() => this.CONSUME(t.Comma));
    });
    this.CONSUME(t.RCurly);
  });

  templateField: Rule = this.RULE('templateField', () => {
    this.CONSUME(t.Name);
    this.CONSUME(t.Colon);
    this.OR({
      DEF: [
        { ALT: () => this.CONSUME(t.StringLiteral) },
        // `tone: calm`: an enum member left unquoted, read as the word it is (as in a work
        // frame). Not when the word starts the next field (`tone:` with no value, then `text:`).
        { GATE: () => !tokenMatcher(this.LA(2), t.Colon), ALT: () => this.CONSUME2(t.Name, { LABEL: 'unquoted' }) },
      ],
      ERR_MSG: 'a string',
    });
  });

  // ── Types ───────────────────────────────────────────────────────────────

  /** `{ a: T, b: T }`: fields separated by commas or line breaks. */
  fieldBlock: Rule = this.RULE('fieldBlock', () => {
    this.CONSUME(t.LCurly);
    this.MANY(() => {
      this.SUBRULE(this.fieldDecl);
      this.OPTION(() => this.CONSUME(t.Comma));
    });
    this.CONSUME(t.RCurly);
  });

  fieldDecl: Rule = this.RULE('fieldDecl', () => {
    this.CONSUME(t.Name);
    this.CONSUME(t.Colon);
    this.SUBRULE(this.typeExpr);
  });

  /** `{ a: T = default }`: the fields of `signals` and `state`. */
  valuedFieldBlock: Rule = this.RULE('valuedFieldBlock', () => {
    this.CONSUME(t.LCurly);
    this.MANY(() => {
      this.SUBRULE(this.valuedFieldDecl);
      this.OPTION(() => this.CONSUME(t.Comma));
    });
    this.CONSUME(t.RCurly);
  });

  valuedFieldDecl: Rule = this.RULE('valuedFieldDecl', () => {
    this.CONSUME(t.Name);
    this.CONSUME(t.Colon);
    this.SUBRULE(this.typeExpr);
    this.OPTION(() => {
      this.CONSUME(t.Assign);
      this.SUBRULE(this.expression);
    });
  });

  /** A type, optionally followed by `?` (may be absent). */
  typeExpr: Rule = this.RULE('typeExpr', () => {
    this.OR({
      ERR_MSG: 'a type',
      DEF: [
        { ALT: () => this.SUBRULE(this.enumType) },
        { ALT: () => this.SUBRULE(this.listType) },
        { ALT: () => this.SUBRULE(this.fieldBlock) },
        { ALT: () => this.SUBRULE(this.namedType) },
      ],
    });
    this.OPTION(() => this.CONSUME(t.Question));
  });

  /** `"child" | "spouse"` */
  enumType: Rule = this.RULE('enumType', () => {
    this.AT_LEAST_ONE_SEP({ SEP: t.Pipe, DEF: () => this.CONSUME(t.StringLiteral) });
  });

  /** `list<string>` */
  listType: Rule = this.RULE('listType', () => {
    this.CONSUME(t.List);
    this.CONSUME(t.Less);
    this.SUBRULE(this.typeExpr);
    this.CONSUME(t.Greater);
  });

  /** `int`, `float(0..1)`, `string(..100)` */
  namedType: Rule = this.RULE('namedType', () => {
    this.CONSUME(t.Name);
    this.OPTION(() => {
      this.CONSUME(t.LParen);
      this.SUBRULE(this.range);
      this.CONSUME(t.RParen);
    });
  });

  range: Rule = this.RULE('range', () => {
    this.OPTION(() => this.SUBRULE(this.signedNumber, { LABEL: 'min' }));
    this.CONSUME(t.DotDot);
    this.OPTION1(() => this.SUBRULE1(this.signedNumber, { LABEL: 'max' }));
  });

  signedNumber: Rule = this.RULE('signedNumber', () => {
    this.OPTION(() => this.CONSUME(t.Minus));
    this.CONSUME(t.NumberToken);
  });

  // ── Scenarios ───────────────────────────────────────────────────────────

  scenarioDecl: Rule = this.RULE('scenarioDecl', () => {
    this.CONSUME(t.Scenario);
    this.CONSUME(t.Name);
    this.CONSUME(t.LCurly);
    this.MANY(() => this.SUBRULE(this.scenarioMember));
    this.CONSUME(t.RCurly);
  });

  scenarioMember: Rule = this.RULE('scenarioMember', () => {
    this.OR({
      ERR_MSG: 'a scenario member',
      DEF: [
        { ALT: () => (this.CONSUME(t.Version), this.CONSUME(t.StringLiteral)) },
        { ALT: () => (this.CONSUME(t.Signals), this.SUBRULE(this.valuedFieldBlock)) },
        { ALT: () => (this.CONSUME(t.State), this.SUBRULE1(this.valuedFieldBlock)) },
        { ALT: () => this.SUBRULE(this.actionType) },
        { ALT: () => this.SUBRULE(this.guardrail) },
        { ALT: () => this.SUBRULE(this.objective) },
        { ALT: () => this.SUBRULE(this.executionRisk) },
        { ALT: () => this.SUBRULE(this.tieBreak) },
        { ALT: () => (this.CONSUME(t.DefaultMode), this.SUBRULE(this.word)) },
      ],
    });
  });

  /** `action_type workout { intensity: "low" | "high", skill fitness_rationale }` */
  actionType: Rule = this.RULE('actionType', () => {
    this.CONSUME(t.ActionType);
    this.CONSUME(t.Name);
    this.CONSUME(t.LCurly);
    this.MANY(() => {
      this.OR([
        // `skill :` is a field called skill, `skill name` the skill mapping.
        { GATE: () => this.LA(2).tokenType !== t.Colon, ALT: () => this.SUBRULE(this.skillMapping) },
        { ALT: () => this.SUBRULE(this.fieldDecl) },
      ]);
      this.OPTION(() => this.CONSUME(t.Comma));
    });
    this.CONSUME(t.RCurly);
  });

  skillMapping: Rule = this.RULE('skillMapping', () => {
    this.CONSUME(t.Skill);
    this.CONSUME(t.Name);
  });

  /** `guardrail "GR-1" "…" { when cond  block pred | force action_type | cap field limit }` */
  guardrail: Rule = this.RULE('guardrail', () => {
    this.CONSUME(t.Guardrail);
    this.CONSUME(t.StringLiteral);
    this.CONSUME1(t.StringLiteral);
    this.CONSUME(t.LCurly);
    this.CONSUME(t.When);
    this.SUBRULE(this.expression);
    this.SUBRULE(this.guardrailEffect);
    this.CONSUME(t.RCurly);
  });

  guardrailEffect: Rule = this.RULE('guardrailEffect', () => {
    this.OR({
      ERR_MSG: '`block`, `force` or `cap`',
      DEF: [
        { ALT: () => (this.CONSUME(t.Block), this.SUBRULE(this.expression)) },
        { ALT: () => (this.CONSUME(t.Force), this.CONSUME(t.Name)) },
        { ALT: () => (this.CONSUME(t.Cap), this.SUBRULE1(this.expression), this.SUBRULE2(this.expression)) },
      ],
    });
  });

  /** `objective completion weight 0.6 = expr` */
  objective: Rule = this.RULE('objective', () => {
    this.CONSUME(t.Objective);
    this.CONSUME(t.Name);
    this.CONSUME(t.Weight);
    this.CONSUME(t.NumberToken);
    this.CONSUME(t.Assign);
    this.SUBRULE(this.expression);
  });

  /** `execution_risk weight 0.1 { skill_unavailable 0.3, offline_mode 0.2 }` */
  executionRisk: Rule = this.RULE('executionRisk', () => {
    this.CONSUME(t.ExecutionRisk);
    this.CONSUME(t.Weight);
    this.CONSUME(t.NumberToken);
    this.CONSUME(t.LCurly);
    this.MANY(() => {
      this.SUBRULE(this.riskFactor);
      this.OPTION(() => this.CONSUME(t.Comma));
    });
    this.CONSUME(t.RCurly);
  });

  riskFactor: Rule = this.RULE('riskFactor', () => {
    this.CONSUME(t.Name);
    this.CONSUME(t.NumberToken);
  });

  /** `tie_break action.duration_minutes asc, action_id desc` */
  tieBreak: Rule = this.RULE('tieBreak', () => {
    this.CONSUME(t.TieBreak);
    this.AT_LEAST_ONE_SEP({ SEP: t.Comma, DEF: () => this.SUBRULE(this.tieBreakKey) });
  });

  tieBreakKey: Rule = this.RULE('tieBreakKey', () => {
    this.SUBRULE(this.expression);
    this.OPTION(() => this.OR([{ ALT: () => this.CONSUME(t.Asc) }, { ALT: () => this.CONSUME(t.Desc) }]));
  });

  // ── Tests ───────────────────────────────────────────────────────────────

  testDecl: Rule = this.RULE('testDecl', () => {
    this.CONSUME(t.Test);
    this.CONSUME(t.StringLiteral);
    this.CONSUME(t.LCurly);
    this.MANY(() => this.SUBRULE(this.testMember));
    this.CONSUME(t.RCurly);
  });

  testMember: Rule = this.RULE('testMember', () => {
    this.OR({
      ERR_MSG: 'a test member',
      DEF: [
        { ALT: () => (this.CONSUME(t.Action), this.CONSUME(t.Name)) },
        { ALT: () => (this.CONSUME(t.Scenario), this.CONSUME1(t.Name)) },
        { ALT: () => (this.CONSUME(t.Context), this.SUBRULE(this.valueRecord)) },
        { ALT: () => (this.CONSUME(t.System), this.SUBRULE1(this.valueRecord)) },
        { ALT: () => (this.CONSUME(t.Signals), this.SUBRULE2(this.valueRecord)) },
        { ALT: () => (this.CONSUME(t.Actions), this.SUBRULE(this.valueList)) },
        { ALT: () => (this.CONSUME(t.ModelReply), this.SUBRULE3(this.valueRecord)) },
        { ALT: () => this.SUBRULE(this.expectation) },
      ],
    });
  });

  /**
   * `expect RED by rule_id` · `expect reason "text"` · `expect reason NO_QUORUM` ·
   * `expect work_frame { next_action: "…" }` · `expect missing_evidence [documents]` ·
   * `expect selected "r1"` · `expect NO_ELIGIBLE_ACTIONS` ·
   * `expect skill output { note CONTAINS "9 days" }` · `expect skill validation failed "STUDY-001"`
   */
  expectation: Rule = this.RULE('expectation', () => {
    this.CONSUME(t.Expect);
    this.OR({
      IGNORE_AMBIGUITIES: true, // the words that start the other forms are tried before a status word
      DEF: [
        { ALT: () => (this.CONSUME(t.Selected), this.CONSUME(t.StringLiteral)) },
        { ALT: () => this.CONSUME(t.NoEligibleActions) },
        {
          ALT: () => {
            this.CONSUME(t.Reason);
            this.OR1([{ ALT: () => this.CONSUME1(t.StringLiteral) }, { ALT: () => this.CONSUME1(t.Name) }]);
          },
        },
        { ALT: () => (this.CONSUME(t.WorkFrame), this.SUBRULE(this.valueRecord)) },
        { ALT: () => (this.CONSUME(t.MissingEvidence), this.SUBRULE(this.nameList)) },
        { ALT: () => (this.CONSUME(t.Skill), this.SUBRULE(this.skillExpectation)) },
        {
          ALT: () => {
            this.SUBRULE(this.word);
            this.OPTION(() => {
              this.CONSUME(t.By);
              this.CONSUME(t.Name);
            });
          },
        },
      ],
    });
  });

  /** After `expect skill`: the payload the selected action's skill gave, or how its validation went. */
  skillExpectation: Rule = this.RULE('skillExpectation', () => {
    this.OR([
      { ALT: () => (this.CONSUME(t.Output), this.SUBRULE(this.skillOutputRecord)) },
      {
        ALT: () => {
          this.CONSUME(t.Validation);
          this.OR1([
            { ALT: () => this.CONSUME(t.Passed) },
            {
              ALT: () => {
                this.CONSUME(t.Failed);
                this.MANY(() => {
                  this.CONSUME(t.StringLiteral);
                  this.OPTION(() => this.CONSUME(t.Comma));
                });
              },
            },
          ]);
        },
      },
    ]);
  });

  /** `{ note: "…", tone: "warm" }`, a field also as `note CONTAINS "9 days"`; commas optional. */
  skillOutputRecord: Rule = this.RULE('skillOutputRecord', () => {
    this.CONSUME(t.LCurly);
    this.MANY(() => {
      this.SUBRULE(this.skillOutputEntry);
      this.OPTION(() => this.CONSUME(t.Comma));
    });
    this.CONSUME(t.RCurly);
  });

  skillOutputEntry: Rule = this.RULE('skillOutputEntry', () => {
    this.CONSUME(t.PropertyName);
    this.OR([
      { ALT: () => (this.CONSUME(t.Colon), this.SUBRULE(this.value)) },
      { ALT: () => (this.CONSUME(t.Contains), this.CONSUME(t.StringLiteral)) },
    ]);
  });

  /** `[documents, dependent_age]`: names, commas optional. */
  nameList: Rule = this.RULE('nameList', () => {
    this.CONSUME(t.LBracket);
    this.MANY(() => {
      this.OR({
        DEF: [
          { ALT: () => this.CONSUME(t.Name) },
          // `["order_id"]`: a name quoted as in JSON, read as the name so the AST builder can
          // say "no quotes" once, instead of the `[` being reported as never closed.
          { ALT: () => this.CONSUME(t.StringLiteral, { LABEL: 'quoted' }) },
        ],
        ERR_MSG: 'a name',
      });
      this.OPTION(() => this.CONSUME(t.Comma));
    });
    this.CONSUME(t.RBracket);
  });

  value: Rule = this.RULE('value', () => {
    this.OR({
      ERR_MSG: 'a value',
      DEF: [
        { ALT: () => this.CONSUME(t.StringLiteral) },
        { ALT: () => this.SUBRULE(this.signedNumber) },
        { ALT: () => this.CONSUME(t.True) },
        { ALT: () => this.CONSUME(t.False) },
        { ALT: () => this.CONSUME(t.Null) },
        { ALT: () => this.SUBRULE(this.valueList) },
        { ALT: () => this.SUBRULE(this.valueRecord) },
      ],
    });
  });

  valueRecord: Rule = this.RULE('valueRecord', () => {
    this.CONSUME(t.LCurly);
    this.MANY(() => {
      this.SUBRULE(this.valueEntry);
      this.OPTION(() => this.CONSUME(t.Comma));
    });
    this.CONSUME(t.RCurly);
  });

  valueEntry: Rule = this.RULE('valueEntry', () => {
    this.CONSUME(t.PropertyName);
    this.CONSUME(t.Colon);
    this.SUBRULE(this.value);
  });

  valueList: Rule = this.RULE('valueList', () => {
    this.CONSUME(t.LBracket);
    this.MANY(() => {
      this.SUBRULE(this.value);
      this.OPTION(() => this.CONSUME(t.Comma));
    });
    this.CONSUME(t.RBracket);
  });

  // ── Expressions ─────────────────────────────────────────────────────────
  //
  // The precedence levels of ast.ts are not one rule each: binary operators of one family
  // are parsed as a flat sequence (`logical`: or/and, `arithmetic`: ?? + - * / %) and
  // cst-to-ast.ts builds the tree by precedence. A rule per level would create a dozen CST
  // nodes for every name and literal; this shape creates four, which halves parse time and
  // memory on large worlds (see grammar/test/performance.test.ts).

  expression: Rule = this.RULE('expression', () => {
    this.OR({
      ERR_MSG: 'an expression',
      DEF: [{ ALT: () => this.SUBRULE(this.conditional) }, { ALT: () => this.SUBRULE(this.logical) }],
    });
  });

  /** `if c then a else b`, `IF c THEN b` */
  conditional: Rule = this.RULE('conditional', () => {
    this.CONSUME(t.If);
    this.SUBRULE(this.expression);
    this.CONSUME(t.Then);
    this.SUBRULE1(this.expression);
    this.OPTION(() => {
      this.CONSUME(t.Else);
      this.SUBRULE2(this.expression);
    });
  });

  /** Comparisons joined by `or` / `and` (`and` binds tighter). */
  logical: Rule = this.RULE('logical', () => {
    this.SUBRULE(this.comparison);
    this.MANY(() => {
      this.OR([
        { ALT: () => this.CONSUME(t.Or, { LABEL: 'operator' }) },
        { ALT: () => this.CONSUME(t.And, { LABEL: 'operator' }) },
      ]);
      this.SUBRULE1(this.comparison);
    });
  });

  /**
   * `not`* then at most one comparison (non-associative): `not a == b` is `not (a == b)`.
   */
  comparison: Rule = this.RULE('comparison', () => {
    this.MANY(() => this.CONSUME(t.Not, { LABEL: 'not' }));
    this.SUBRULE(this.arithmetic);
    this.OPTION(() =>
      this.OR([
        { ALT: () => (this.SUBRULE(this.comparisonOperator), this.SUBRULE1(this.arithmetic)) },
        { ALT: () => (this.SUBRULE(this.textOperator), this.SUBRULE2(this.arithmetic)) },
        {
          ALT: () => {
            this.CONSUME(t.Is);
            this.OPTION1(() => this.CONSUME1(t.Not, { LABEL: 'isNot' }));
            this.CONSUME(t.Null);
          },
        },
        {
          ALT: () => {
            this.CONSUME(t.Length);
            this.SUBRULE1(this.comparisonOperator);
            this.SUBRULE3(this.arithmetic);
          },
        },
      ]),
    );
  });

  comparisonOperator: Rule = this.RULE('comparisonOperator', () => {
    this.OR([
      { ALT: () => this.CONSUME(t.EqualEqual, { LABEL: 'operator' }) },
      { ALT: () => this.CONSUME(t.NotEqual, { LABEL: 'operator' }) },
      { ALT: () => this.CONSUME(t.LessEqual, { LABEL: 'operator' }) },
      { ALT: () => this.CONSUME(t.GreaterEqual, { LABEL: 'operator' }) },
      { ALT: () => this.CONSUME(t.Less, { LABEL: 'operator' }) },
      { ALT: () => this.CONSUME(t.Greater, { LABEL: 'operator' }) },
    ]);
  });

  /** `EQUALS`, `in`, and the SEC text operators with their `NOT` forms. */
  textOperator: Rule = this.RULE('textOperator', () => {
    this.OR([
      { ALT: () => this.CONSUME(t.EqualsWord) },
      { ALT: () => this.CONSUME(t.In) },
      {
        ALT: () => {
          this.OPTION(() => this.CONSUME(t.Not));
          this.OR1([
            { ALT: () => this.CONSUME(t.ContainsAny) },
            { ALT: () => this.CONSUME(t.Contains) },
            { ALT: () => this.CONSUME(t.Matches) },
          ]);
        },
      },
    ]);
  });

  /** Operands joined by `??` (lowest, right-associative), `+ -`, then `* / %` (highest). */
  arithmetic: Rule = this.RULE('arithmetic', () => {
    this.SUBRULE(this.operand);
    this.MANY(() => {
      this.OR([
        { ALT: () => this.CONSUME(t.QuestionQuestion, { LABEL: 'operator' }) },
        { ALT: () => this.CONSUME(t.Plus, { LABEL: 'operator' }) },
        { ALT: () => this.CONSUME(t.Minus, { LABEL: 'operator' }) },
        { ALT: () => this.CONSUME(t.Star, { LABEL: 'operator' }) },
        { ALT: () => this.CONSUME(t.Slash, { LABEL: 'operator' }) },
        { ALT: () => this.CONSUME(t.Percent, { LABEL: 'operator' }) },
      ]);
      this.SUBRULE1(this.operand);
    });
  });

  /** `-`* then a literal, a name, a call, a list or `( … )`, then `.field`*. */
  operand: Rule = this.RULE('operand', () => {
    this.MANY(() => this.CONSUME(t.Minus, { LABEL: 'negate' }));
    this.OR({
      ERR_MSG: 'an expression',
      DEF: [
        { ALT: () => this.CONSUME(t.NumberToken) },
        { ALT: () => this.CONSUME(t.StringLiteral) },
        { ALT: () => this.CONSUME(t.Duration) },
        { ALT: () => this.CONSUME(t.True) },
        { ALT: () => this.CONSUME(t.False) },
        { ALT: () => this.CONSUME(t.Null) },
        {
          // A name, or a call of a built-in function: `clamp(x, 0, 1)`.
          GATE: () => this.isOperandName(),
          ALT: () => {
            this.CONSUME(t.Name);
            this.OPTION(() => {
              this.CONSUME(t.LParen);
              this.MANY_SEP({ SEP: t.Comma, DEF: () => this.SUBRULE(this.expression) });
              this.CONSUME(t.RParen);
            });
          },
        },
        { ALT: () => this.SUBRULE(this.listLiteral) },
        { ALT: () => this.SUBRULE(this.parenthesized) },
      ],
    });
    this.MANY1(() => {
      this.CONSUME(t.Dot);
      this.CONSUME(t.PropertyName);
    });
  });

  /**
   * Whether the name ahead is an operand. A soft keyword is a fine name (`state`, `weight`),
   * except where it plainly starts the next clause: followed by a literal (`reason "…"`,
   * `weight 0.5`, `timeout 5ms`) or by a name and `{` (`rule next {`). No expression is ever
   * followed by those, so this only turns `when a >⏎reason "…"` into "expected an
   * expression, found `reason`" instead of reading `reason` as the operand.
   */
  private isOperandName(): boolean {
    if (this.LA(1).tokenType === t.Identifier) return true;
    const next = this.LA(2).tokenType;
    if (next === t.NumberToken || next === t.Duration || next === t.GreenSkip) return false;
    if (next.CATEGORIES?.includes(t.StringLiteral)) return false;
    return !(next.CATEGORIES?.includes(t.Name) && this.LA(3).tokenType === t.LCurly);
  }

  listLiteral: Rule = this.RULE('listLiteral', () => {
    this.CONSUME(t.LBracket);
    this.MANY_SEP({ SEP: t.Comma, DEF: () => this.SUBRULE(this.expression) });
    this.CONSUME(t.RBracket);
  });

  parenthesized: Rule = this.RULE('parenthesized', () => {
    this.CONSUME(t.LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(t.RParen);
  });
}
