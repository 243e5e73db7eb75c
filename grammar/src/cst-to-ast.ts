/**
 * CST → AST: turns the parser's concrete syntax tree into the typed AST of ast.ts, with a
 * span on every node.
 *
 * After error recovery a CST node may lack children (or hold tokens inserted by recovery,
 * which have no position). Every builder here copes with that and still returns a
 * well-formed node: a missing expression becomes `MissingExpr`, a missing name an
 * `Identifier` with an empty `name`, a missing string an empty `StringLiteral`, each with an
 * empty span where the text was expected. The parser has already reported the error.
 */
import type { Diagnostic, Span } from '@adec/diagnostics';
import { diagnostic, joinSpans } from '@adec/diagnostics';
import type { CstNode, IToken } from 'chevrotain';
import type * as A from './ast.js';
import { durationMilliseconds, isIntegerText, tokenSpan } from './lexer.js';
import type { LineMap } from './line-map.js';
import { parseTemplateString, type ParseInnerExpression } from './template-string.js';
import * as t from './tokens.js';
import { BINARY_PRECEDENCE, RIGHT_ASSOCIATIVE } from './precedence.js';

type Child = CstNode | IToken;

export class AstBuilder {
  constructor(
    private readonly lines: LineMap,
    private readonly parseInnerExpression: ParseInnerExpression,
    /** Receives ADEC1007 (interpolation) diagnostics, and ADEC1003 for a value left unquoted. */
    private readonly diagnostics: Diagnostic[],
  ) {}

  // ── CST access ──────────────────────────────────────────────────────────

  /** The `index`-th token under `key`, unless absent or inserted by error recovery. */
  private token(node: CstNode | undefined, key: string, index = 0): IToken | undefined {
    const child = node?.children[key]?.[index] as IToken | undefined;
    if (child === undefined || child.isInsertedInRecovery || Number.isNaN(child.startOffset)) return undefined;
    return child;
  }

  private tokens(node: CstNode | undefined, key: string): IToken[] {
    return ((node?.children[key] ?? []) as IToken[]).filter((tok) => !tok.isInsertedInRecovery && !Number.isNaN(tok.startOffset));
  }

  private node(node: CstNode | undefined, key: string, index = 0): CstNode | undefined {
    return node?.children[key]?.[index] as CstNode | undefined;
  }

  private nodes(node: CstNode | undefined, key: string): CstNode[] {
    return (node?.children[key] ?? []) as CstNode[];
  }

  /** The span a CST node covers; an empty span at `fallback` when recovery left it empty. */
  private spanOf(node: CstNode | undefined, fallback: number): Span {
    const start = firstOffset(node);
    if (start === undefined) return this.lines.point(fallback);
    return this.lines.span(start, lastEnd(node) ?? start);
  }

  private startOf(node: CstNode | undefined, fallback: number): number {
    return firstOffset(node) ?? fallback;
  }

  private endOf(node: CstNode | undefined, fallback: number): number {
    return lastEnd(node) ?? fallback;
  }

  private tokenEnd(token: IToken | undefined, fallback: number): number {
    return token ? token.startOffset + token.image.length : fallback;
  }

  // ── Leaves ──────────────────────────────────────────────────────────────

  private identifier(token: IToken | undefined, fallback: number): A.Identifier {
    if (!token) return { kind: 'Identifier', name: '', span: this.lines.point(fallback) };
    return { kind: 'Identifier', name: token.image, span: tokenSpan(token, this.lines) };
  }

  private string(token: IToken | undefined, fallback: number): A.StringLiteral {
    if (!token) return { kind: 'StringLiteral', value: '', span: this.lines.point(fallback) };
    return { kind: 'StringLiteral', value: stringValue(token), span: tokenSpan(token, this.lines) };
  }

  /** A word where a string belongs (`mode blocked`): an error that says to quote it, and the word as the value. */
  private unquotedString(token: IToken, fallback: number): A.StringLiteral {
    const span = tokenSpan(token, this.lines);
    this.diagnostics.push(diagnostic('ADEC1003', span, { expected: 'a string', found: `\`${token.image}\`` }, { help: `quote it: \`"${token.image}"\`` }));
    return token.image === '' ? this.string(undefined, fallback) : { kind: 'StringLiteral', value: token.image, span };
  }

  /** The names of a `[a, b]` list in source order; a quoted one (`"a"`) is an error that says to drop the quotes, and the name. */
  private names(list: CstNode | undefined, fallback: number): A.Identifier[] {
    const quoted = this.tokens(list, 'quoted').map((token) => {
      const span = tokenSpan(token, this.lines);
      const name = stringValue(token);
      this.diagnostics.push(diagnostic('ADEC1003', span, { expected: 'a name', found: `\`${token.image}\`` }, { help: `names are written without quotes: \`${name}\`` }));
      return { kind: 'Identifier' as const, name, span };
    });
    return [...this.tokens(list, 'Name').map((name) => this.identifier(name, fallback)), ...quoted].sort((a, b) => a.span.offset - b.span.offset);
  }

  /** A word where a template's text belongs (`tone: calm`): the same error, and the word as its text. */
  private unquotedTemplate(token: IToken): A.TemplateString {
    const { value, span } = this.unquotedString(token, token.startOffset);
    return { kind: 'TemplateString', parts: [{ kind: 'TemplateText', text: value, span }], span };
  }

  private template(token: IToken | undefined, fallback: number): A.TemplateString {
    if (!token) return { kind: 'TemplateString', parts: [], span: this.lines.point(fallback) };
    if (token.tokenType === t.TooDeep) return { kind: 'TemplateString', parts: [], span: tokenSpan(token, this.lines) };
    return parseTemplateString(token, this.lines, this.parseInnerExpression, this.diagnostics);
  }

  /** A clause's duration; NaN milliseconds when it is missing or invalid (already reported). */
  private duration(token: IToken | undefined, fallback: number): A.DurationLiteral {
    if (!token) return { kind: 'DurationLiteral', milliseconds: Number.NaN, text: '', span: this.lines.point(fallback) };
    const milliseconds = durationMilliseconds(token.image) ?? Number.NaN;
    return { kind: 'DurationLiteral', milliseconds, text: token.image, span: tokenSpan(token, this.lines) };
  }

  private number(token: IToken | undefined, fallback: number): A.NumberLiteral {
    if (!token) return { kind: 'NumberLiteral', value: 0, isInteger: true, span: this.lines.point(fallback) };
    return numberLiteral(token, tokenSpan(token, this.lines));
  }

  private signedNumber(node: CstNode | undefined, fallback: number): A.NumberLiteral {
    const minus = this.token(node, 'Minus');
    const literal = this.number(this.token(node, 'Number'), this.tokenEnd(minus, fallback));
    if (!minus) return literal;
    return { ...literal, value: -literal.value, span: joinSpans(tokenSpan(minus, this.lines), literal.span) };
  }

  /** An outcome/severity/status/mode spelling, kept as written. */
  private word(node: CstNode | undefined, fallback: number): A.Word {
    const token = this.token(node, 'GreenSkip') ?? this.token(node, 'Name') ?? this.token(node, 'Number') ?? this.token(node, 'StringLiteral');
    if (!token) return { kind: 'Word', text: '', span: this.lines.point(fallback) };
    // `GREN-SKIP`: the text as written, spaces included, so only `GREEN-SKIP` itself is valid.
    const end = this.tokenEnd(this.token(node, 'Name', 1), this.tokenEnd(token, token.startOffset));
    return { kind: 'Word', text: this.lines.text.slice(token.startOffset, end), span: this.lines.span(token.startOffset, end) };
  }

  // ── File and declarations ───────────────────────────────────────────────

  sourceFile(path: string, cst: CstNode): A.SourceFile {
    const declarations: A.Declaration[] = [];
    for (const declaration of this.nodes(cst, 'declaration')) {
      const built = this.declaration(declaration);
      if (built) declarations.push(built);
    }
    return { kind: 'SourceFile', path, declarations, span: this.lines.span(0, this.lines.text.length) };
  }

  private declaration(node: CstNode): A.Declaration | undefined {
    const [key, children] = Object.entries(node.children)[0] ?? [];
    const inner = children?.[0] as CstNode | undefined;
    if (!inner) return undefined;
    switch (key) {
      case 'worldHeader':
        return this.worldHeader(inner);
      case 'contextBlock':
        return this.contextBlock(inner);
      case 'actionDecl':
        return this.actionDecl(inner);
      case 'skillDecl':
        return this.skillDecl(inner);
      case 'scenarioDecl':
        return this.scenarioDecl(inner);
      case 'testDecl':
        return this.testDecl(inner);
      default:
        return undefined;
    }
  }

  private worldHeader(node: CstNode): A.WorldHeader {
    const settings = this.nodes(node, 'worldSetting').map((setting): A.WorldSetting => {
      const start = this.startOf(setting, 0);
      const key = this.identifier(this.token(setting, 'Name'), start);
      const duration = this.token(setting, 'Duration');
      const value = duration
        ? this.duration(duration, key.span.endOffset)
        : this.string(this.token(setting, 'StringLiteral'), key.span.endOffset);
      return { kind: 'WorldSetting', key, value, span: this.spanOf(setting, start) };
    });
    return { kind: 'WorldHeader', settings, span: this.spanOf(node, 0) };
  }

  private contextBlock(node: CstNode): A.ContextBlock {
    const attributes = this.nodes(node, 'contextAttribute').map((attribute): A.ContextAttributeDecl => {
      const start = this.startOf(attribute, 0);
      const sourceToken = this.token(attribute, 'Supplied') ?? this.token(attribute, 'System') ?? this.token(attribute, 'Computed');
      const source = (sourceToken ? spelling(sourceToken) : 'supplied') as A.ContextSource;
      const name = this.identifier(this.token(attribute, 'Name'), this.tokenEnd(sourceToken, start));
      const type = this.typeExpr(this.node(attribute, 'typeExpr'), name.span.endOffset);
      const assign = this.token(attribute, 'Assign');
      const value = assign ? this.expression(this.node(attribute, 'expression'), this.tokenEnd(assign, start)) : undefined;
      return {
        kind: 'ContextAttributeDecl',
        source,
        name,
        type,
        ...(value && { value }),
        span: this.spanOf(attribute, start),
      };
    });
    return { kind: 'ContextBlock', attributes, span: this.spanOf(node, 0) };
  }

  private actionDecl(node: CstNode): A.ActionDecl {
    const start = this.startOf(node, 0);
    const name = this.identifier(this.token(node, 'Name'), this.tokenEnd(this.token(node, 'Action'), start));
    return {
      kind: 'ActionDecl',
      name,
      aggregations: this.nodes(node, 'aggregation').map((aggregation) => this.aggregation(aggregation)),
      contexts: this.nodes(node, 'contextBlock').map((context) => this.contextBlock(context)),
      rules: this.nodes(node, 'ruleDecl').map((rule) => this.ruleDecl(rule)),
      workFrames: this.nodes(node, 'workFrameTemplate').map((frame) => this.workFrameTemplate(frame)),
      span: this.spanOf(node, start),
    };
  }

  private aggregation(node: CstNode): A.AggregationClause {
    const start = this.startOf(node, 0);
    const mode = this.identifier(this.token(node, 'Name'), this.tokenEnd(this.token(node, 'Aggregate'), start));
    const parameter = this.token(node, 'Number');
    return {
      kind: 'AggregationClause',
      mode,
      ...(parameter && { parameter: this.number(parameter, start) }),
      span: this.spanOf(node, start),
    };
  }

  private ruleDecl(node: CstNode): A.RuleDecl {
    const start = this.startOf(node, 0);
    const id = this.identifier(this.token(node, 'Name'), this.tokenEnd(this.token(node, 'Rule'), start));
    const clauses: A.RuleClause[] = [];
    for (const clause of this.nodes(node, 'ruleClause')) {
      const built = this.ruleClause(clause);
      if (built) clauses.push(built);
    }
    return { kind: 'RuleDecl', id, clauses, span: this.spanOf(node, start) };
  }

  private ruleClause(node: CstNode): A.RuleClause | undefined {
    const span = this.spanOf(node, 0);
    const keyword = firstToken(node);
    if (!keyword) return undefined;
    const after = this.tokenEnd(keyword, span.offset);
    switch (keyword.tokenType) {
      case t.Outcome:
        return { kind: 'OutcomeClause', value: this.word(this.node(node, 'word'), after), span };
      case t.Severity:
        return { kind: 'SeverityClause', value: this.word(this.node(node, 'word'), after), span };
      case t.AppliesWhen:
        return { kind: 'AppliesWhenClause', condition: this.expression(this.node(node, 'expression'), after), span };
      case t.When:
        return { kind: 'WhenClause', condition: this.expression(this.node(node, 'expression'), after), span };
      case t.Reason:
        return { kind: 'ReasonClause', template: this.template(this.token(node, 'StringLiteral'), after), span };
      case t.Suppresses:
        return {
          kind: 'SuppressesClause',
          rules: this.tokens(node, 'Name').map((rule) => this.identifier(rule, after)),
          span,
        };
      case t.Timeout:
        return { kind: 'TimeoutClause', duration: this.duration(this.token(node, 'Duration'), after), span };
      case t.Weight:
        return { kind: 'WeightClause', weight: this.number(this.token(node, 'Number'), after), span };
      default:
        return undefined;
    }
  }

  private workFrameTemplate(node: CstNode): A.WorkFrameTemplateDecl {
    const start = this.startOf(node, 0);
    const status = this.word(this.node(node, 'word'), this.tokenEnd(this.token(node, 'On'), start));
    const fields = this.nodes(node, 'workFrameField').map((field): A.WorkFrameFieldDecl => {
      const fieldStart = this.startOf(field, start);
      const name = this.identifier(this.token(field, 'Name'), fieldStart);
      const list = this.node(field, 'stringList');
      const unquoted = this.tokens(field, 'unquoted')[0];
      const value: A.StringLiteral | A.StringListLiteral = list
        ? {
            kind: 'StringListLiteral',
            items: this.tokens(list, 'StringLiteral').map((item) => this.string(item, fieldStart)),
            span: this.spanOf(list, name.span.endOffset),
          }
        : unquoted !== undefined
          ? this.unquotedString(unquoted, name.span.endOffset)
          : this.string(this.token(field, 'StringLiteral'), name.span.endOffset);
      return { kind: 'WorkFrameFieldDecl', name, value, span: this.spanOf(field, fieldStart) };
    });
    return { kind: 'WorkFrameTemplateDecl', status, fields, span: this.spanOf(node, start) };
  }

  // ── Skills ──────────────────────────────────────────────────────────────

  private skillDecl(node: CstNode): A.SkillDecl {
    const start = this.startOf(node, 0);
    const id = this.identifier(this.token(node, 'Name'), this.tokenEnd(this.token(node, 'Skill'), start));
    const members: A.SkillMember[] = [];
    for (const member of this.nodes(node, 'skillMember')) {
      const built = this.skillMember(member);
      if (built) members.push(built);
    }
    return { kind: 'SkillDecl', id, members, span: this.spanOf(node, start) };
  }

  private skillMember(node: CstNode): A.SkillMember | undefined {
    const span = this.spanOf(node, 0);
    const invariant = this.node(node, 'invariant');
    if (invariant) return this.invariant(invariant);
    const prohibit = this.node(node, 'prohibit');
    if (prohibit) return this.prohibit(prohibit);
    const template = this.node(node, 'skillTemplate');
    if (template) return this.skillTemplate(template);

    const keyword = firstToken(node);
    if (!keyword) return undefined;
    const after = this.tokenEnd(keyword, span.offset);
    switch (keyword.tokenType) {
      case t.Version:
        return { kind: 'SkillVersion', version: this.string(this.token(node, 'StringLiteral'), after), span };
      case t.Type:
        return { kind: 'SkillType', value: this.word(this.node(node, 'word'), after), span };
      case t.Description:
        return { kind: 'SkillDescription', text: this.string(this.token(node, 'StringLiteral'), after), span };
      case t.Prompt:
        return { kind: 'SkillPrompt', template: this.template(this.token(node, 'StringLiteral'), after), span };
      case t.Timeout: {
        const timeout = this.duration(this.token(node, 'Duration'), after);
        const hardLimit = this.token(node, 'HardLimit');
        return {
          kind: 'SkillTimeout',
          timeout,
          ...(hardLimit && { hardLimit: this.duration(this.token(node, 'Duration', 1), this.tokenEnd(hardLimit, after)) }),
          span,
        };
      }
      case t.Fallback:
        return { kind: 'SkillFallback', skill: this.identifier(this.token(node, 'Name'), after), span };
      case t.ActionMetadata:
        return { kind: 'SkillActionMetadata', fields: this.fieldBlock(this.node(node, 'fieldBlock')), span };
      case t.UserState:
        return { kind: 'SkillUserState', fields: this.fieldBlock(this.node(node, 'fieldBlock')), span };
      case t.Output:
        return { kind: 'SkillOutput', fields: this.fieldBlock(this.node(node, 'fieldBlock')), span };
      default:
        return undefined;
    }
  }

  private invariant(node: CstNode): A.InvariantDecl {
    const span = this.spanOf(node, 0);
    const id = this.string(this.token(node, 'StringLiteral'), this.tokenEnd(this.token(node, 'Invariant'), span.offset));
    const description = this.string(this.token(node, 'StringLiteral', 1), id.span.endOffset);
    const colon = this.token(node, 'Colon');
    const check = this.expression(this.node(node, 'expression'), this.tokenEnd(colon, description.span.endOffset));
    // From the colon to the declaration's last token: an expression's own span leaves out
    // the parentheses around its first or last operand.
    const source = this.lines.text.slice(this.tokenEnd(colon, description.span.endOffset), span.endOffset).trim();
    return { kind: 'InvariantDecl', id, description, check, source, span };
  }

  private prohibit(node: CstNode): A.ProhibitDecl {
    const span = this.spanOf(node, 0);
    const id = this.string(this.token(node, 'StringLiteral'), this.tokenEnd(this.token(node, 'Prohibit'), span.offset));
    const pattern = this.string(this.token(node, 'StringLiteral', 1), id.span.endOffset);
    const reason = this.string(this.token(node, 'StringLiteral', 2), pattern.span.endOffset);
    return { kind: 'ProhibitDecl', id, pattern, reason, span };
  }

  private skillTemplate(node: CstNode): A.SkillTemplateDecl {
    const span = this.spanOf(node, 0);
    const name = this.identifier(this.token(node, 'Name'), this.tokenEnd(this.token(node, 'Template'), span.offset));
    const when = this.token(node, 'When');
    const condition = when ? this.expression(this.node(node, 'expression'), this.tokenEnd(when, span.offset)) : undefined;
    const fields = this.nodes(node, 'templateField').map((field) => {
      const fieldSpan = this.spanOf(field, span.offset);
      const fieldName = this.identifier(this.token(field, 'Name'), fieldSpan.offset);
      const unquoted = this.tokens(field, 'unquoted')[0];
      const template = unquoted === undefined ? this.template(this.token(field, 'StringLiteral'), fieldName.span.endOffset) : this.unquotedTemplate(unquoted);
      return { name: fieldName, template, span: fieldSpan };
    });
    return { kind: 'SkillTemplateDecl', name, ...(condition && { when: condition }), fields, span };
  }

  // ── Types ───────────────────────────────────────────────────────────────

  private fieldBlock(node: CstNode | undefined): A.FieldDecl[] {
    return this.nodes(node, 'fieldDecl').map((field) => this.fieldDecl(field));
  }

  private valuedFieldBlock(node: CstNode | undefined): A.FieldDecl[] {
    return this.nodes(node, 'valuedFieldDecl').map((field) => this.fieldDecl(field));
  }

  private fieldDecl(node: CstNode): A.FieldDecl {
    const span = this.spanOf(node, 0);
    const name = this.identifier(this.token(node, 'Name'), span.offset);
    const type = this.typeExpr(this.node(node, 'typeExpr'), this.tokenEnd(this.token(node, 'Colon'), name.span.endOffset));
    const assign = this.token(node, 'Assign');
    const defaultValue = assign ? this.expression(this.node(node, 'expression'), this.tokenEnd(assign, span.offset)) : undefined;
    return { kind: 'FieldDecl', name, type, ...(defaultValue && { defaultValue }), span };
  }

  private typeExpr(node: CstNode | undefined, fallback: number): A.TypeExpr {
    const inner = this.innerType(node, fallback);
    const question = this.token(node, 'Question');
    if (!question) return inner;
    return { kind: 'OptionalType', inner, span: joinSpans(inner.span, tokenSpan(question, this.lines)) };
  }

  private innerType(node: CstNode | undefined, fallback: number): A.TypeExpr {
    const enumType = this.node(node, 'enumType');
    if (enumType) {
      const tokens = this.tokens(enumType, 'StringLiteral');
      const tooDeep = tokens.find((member) => member.tokenType === t.TooDeep);
      if (tooDeep) {
        // A type nested deeper than the limit (ADEC1010): an unnamed type, which the checker ignores.
        const span = tokenSpan(tooDeep, this.lines);
        return { kind: 'NamedType', name: { kind: 'Identifier', name: '', span }, span };
      }
      const members = tokens.map((member) => this.string(member, fallback));
      return { kind: 'EnumType', members, span: this.spanOf(enumType, fallback) };
    }
    const listType = this.node(node, 'listType');
    if (listType) {
      const span = this.spanOf(listType, fallback);
      const element = this.typeExpr(this.node(listType, 'typeExpr'), this.tokenEnd(this.token(listType, 'Less'), span.endOffset));
      return { kind: 'ListType', element, span };
    }
    const record = this.node(node, 'fieldBlock');
    if (record) return { kind: 'RecordType', fields: this.fieldBlock(record), span: this.spanOf(record, fallback) };

    const named = this.node(node, 'namedType');
    const start = this.startOf(named, fallback);
    const name = this.identifier(this.token(named, 'Name'), start);
    const rangeNode = this.node(named, 'range');
    const range = rangeNode ? this.range(rangeNode, name.span.endOffset) : undefined;
    return { kind: 'NamedType', name, ...(range && { range }), span: this.spanOf(named, start) };
  }

  private range(node: CstNode, fallback: number): A.RangeSpec {
    const span = this.spanOf(node, fallback);
    const min = this.node(node, 'min');
    const max = this.node(node, 'max');
    return {
      ...(min && { min: this.signedNumber(min, span.offset) }),
      ...(max && { max: this.signedNumber(max, span.endOffset) }),
      span,
    };
  }

  // ── Scenarios ───────────────────────────────────────────────────────────

  private scenarioDecl(node: CstNode): A.ScenarioDecl {
    const start = this.startOf(node, 0);
    const id = this.identifier(this.token(node, 'Name'), this.tokenEnd(this.token(node, 'Scenario'), start));
    const members: A.ScenarioMember[] = [];
    for (const member of this.nodes(node, 'scenarioMember')) {
      const built = this.scenarioMember(member);
      if (built) members.push(built);
    }
    return { kind: 'ScenarioDecl', id, members, span: this.spanOf(node, start) };
  }

  private scenarioMember(node: CstNode): A.ScenarioMember | undefined {
    const span = this.spanOf(node, 0);
    const actionType = this.node(node, 'actionType');
    if (actionType) return this.actionType(actionType);
    const guardrail = this.node(node, 'guardrail');
    if (guardrail) return this.guardrail(guardrail);
    const objective = this.node(node, 'objective');
    if (objective) return this.objective(objective);
    const risk = this.node(node, 'executionRisk');
    if (risk) return this.executionRisk(risk);
    const tieBreak = this.node(node, 'tieBreak');
    if (tieBreak) {
      const keys = this.nodes(tieBreak, 'tieBreakKey').map((key): A.TieBreakKey => {
        const keySpan = this.spanOf(key, span.offset);
        const direction = this.token(key, 'Desc') ? 'desc' : 'asc';
        return { kind: 'TieBreakKey', key: this.expression(this.node(key, 'expression'), keySpan.offset), direction, span: keySpan };
      });
      return { kind: 'TieBreakDecl', keys, span };
    }

    const keyword = firstToken(node);
    if (!keyword) return undefined;
    const after = this.tokenEnd(keyword, span.offset);
    switch (keyword.tokenType) {
      case t.Version:
        return { kind: 'ScenarioVersion', version: this.string(this.token(node, 'StringLiteral'), after), span };
      case t.Signals:
        return { kind: 'SignalsBlock', fields: this.valuedFieldBlock(this.node(node, 'valuedFieldBlock')), span };
      case t.State:
        return { kind: 'StateBlock', fields: this.valuedFieldBlock(this.node(node, 'valuedFieldBlock')), span };
      case t.DefaultMode:
        return { kind: 'DefaultModeDecl', mode: this.word(this.node(node, 'word'), after), span };
      default:
        return undefined;
    }
  }

  private actionType(node: CstNode): A.ActionTypeDecl {
    const span = this.spanOf(node, 0);
    const name = this.identifier(this.token(node, 'Name'), this.tokenEnd(this.token(node, 'ActionType'), span.offset));
    const mapping = this.node(node, 'skillMapping');
    const skill = mapping
      ? this.identifier(this.token(mapping, 'Name'), this.endOf(mapping, span.offset))
      : undefined;
    return {
      kind: 'ActionTypeDecl',
      name,
      fields: this.nodes(node, 'fieldDecl').map((field) => this.fieldDecl(field)),
      ...(skill && { skill }),
      span,
    };
  }

  private guardrail(node: CstNode): A.GuardrailDecl {
    const span = this.spanOf(node, 0);
    const id = this.string(this.token(node, 'StringLiteral'), this.tokenEnd(this.token(node, 'Guardrail'), span.offset));
    const description = this.string(this.token(node, 'StringLiteral', 1), id.span.endOffset);
    const when = this.token(node, 'When');
    const condition = this.expression(this.node(node, 'expression'), this.tokenEnd(when, description.span.endOffset));
    const effect = this.guardrailEffect(this.node(node, 'guardrailEffect'), condition.span.endOffset);
    return { kind: 'GuardrailDecl', id, description, when: condition, effect, span };
  }

  private guardrailEffect(node: CstNode | undefined, fallback: number): A.GuardrailEffect {
    const span = this.spanOf(node, fallback);
    const keyword = firstToken(node);
    const after = this.tokenEnd(keyword, span.offset);
    if (keyword?.tokenType === t.Force) {
      return { kind: 'ForceEffect', actionType: this.identifier(this.token(node, 'Name'), after), span };
    }
    if (keyword?.tokenType === t.Cap) {
      const field = this.expression(this.node(node, 'expression'), after);
      const limit = this.expression(this.node(node, 'expression', 1), field.span.endOffset);
      return { kind: 'CapEffect', field, limit, span };
    }
    return { kind: 'BlockEffect', predicate: this.expression(this.node(node, 'expression'), after), span };
  }

  private objective(node: CstNode): A.ObjectiveDecl {
    const span = this.spanOf(node, 0);
    const name = this.identifier(this.token(node, 'Name'), this.tokenEnd(this.token(node, 'Objective'), span.offset));
    const weight = this.number(this.token(node, 'Number'), this.tokenEnd(this.token(node, 'Weight'), name.span.endOffset));
    const score = this.expression(this.node(node, 'expression'), this.tokenEnd(this.token(node, 'Assign'), weight.span.endOffset));
    return { kind: 'ObjectiveDecl', name, weight, score, span };
  }

  private executionRisk(node: CstNode): A.ExecutionRiskDecl {
    const span = this.spanOf(node, 0);
    const weight = this.number(this.token(node, 'Number'), this.tokenEnd(this.token(node, 'Weight'), span.offset));
    const factors = this.nodes(node, 'riskFactor').map((factor) => {
      const factorSpan = this.spanOf(factor, span.offset);
      const name = this.identifier(this.token(factor, 'Name'), factorSpan.offset);
      return { name, value: this.number(this.token(factor, 'Number'), name.span.endOffset), span: factorSpan };
    });
    return { kind: 'ExecutionRiskDecl', weight, factors, span };
  }

  // ── Tests ───────────────────────────────────────────────────────────────

  private testDecl(node: CstNode): A.TestDecl {
    const start = this.startOf(node, 0);
    const name = this.string(this.token(node, 'StringLiteral'), this.tokenEnd(this.token(node, 'Test'), start));
    const members: A.TestMember[] = [];
    for (const member of this.nodes(node, 'testMember')) {
      const built = this.testMember(member);
      if (built) members.push(built);
    }
    return { kind: 'TestDecl', name, members, span: this.spanOf(node, start) };
  }

  private testMember(node: CstNode): A.TestMember | undefined {
    const span = this.spanOf(node, 0);
    const expectation = this.node(node, 'expectation');
    if (expectation) return this.expectation(expectation);
    const keyword = firstToken(node);
    if (!keyword) return undefined;
    const after = this.tokenEnd(keyword, span.offset);
    switch (keyword.tokenType) {
      case t.Action:
        return { kind: 'TestAction', action: this.identifier(this.token(node, 'Name'), after), span };
      case t.Scenario:
        return { kind: 'TestScenario', scenario: this.identifier(this.token(node, 'Name'), after), span };
      case t.Context:
        return { kind: 'TestContext', value: this.valueRecord(this.node(node, 'valueRecord'), after), span };
      case t.System:
        return { kind: 'TestSystem', value: this.valueRecord(this.node(node, 'valueRecord'), after), span };
      case t.Signals:
        return { kind: 'TestSignals', value: this.valueRecord(this.node(node, 'valueRecord'), after), span };
      case t.Actions:
        return { kind: 'TestActions', value: this.valueList(this.node(node, 'valueList'), after), span };
      case t.ModelReply:
        return { kind: 'TestModelReply', value: this.valueRecord(this.node(node, 'valueRecord'), after), span };
      default:
        return undefined;
    }
  }

  private expectation(node: CstNode): A.TestMember {
    const span = this.spanOf(node, 0);
    const after = this.tokenEnd(this.token(node, 'Expect'), span.offset);
    if (this.token(node, 'Selected')) {
      return { kind: 'TestExpectSelected', actionId: this.string(this.token(node, 'StringLiteral'), after), span };
    }
    if (this.token(node, 'NoEligibleActions')) return { kind: 'TestExpectNoEligible', span };
    const reason = this.token(node, 'Reason');
    if (reason) {
      const text = this.token(node, 'StringLiteral');
      const at = this.tokenEnd(reason, after);
      return { kind: 'TestExpectReason', reason: text ? this.string(text, at) : this.identifier(this.token(node, 'Name'), at), span };
    }
    const workFrame = this.token(node, 'WorkFrame');
    if (workFrame) return { kind: 'TestExpectWorkFrame', value: this.valueRecord(this.node(node, 'valueRecord'), this.tokenEnd(workFrame, after)), span };
    if (this.token(node, 'MissingEvidence')) {
      return { kind: 'TestExpectMissingEvidence', attributes: this.names(this.node(node, 'nameList'), after), span };
    }
    const skill = this.node(node, 'skillExpectation');
    if (skill) return this.skillExpectation(skill, span, this.tokenEnd(this.token(node, 'Skill'), after));
    const status = this.word(this.node(node, 'word'), after);
    const by = this.token(node, 'By');
    const rule = by ? this.identifier(this.token(node, 'Name'), this.tokenEnd(by, after)) : undefined;
    return { kind: 'TestExpectStatus', status, ...(rule && { rule }), span };
  }

  private skillExpectation(node: CstNode, span: Span, after: number): A.TestMember {
    const output = this.token(node, 'Output');
    if (output) return { kind: 'TestExpectSkillOutput', fields: this.skillOutputEntries(this.node(node, 'skillOutputRecord'), this.tokenEnd(output, after)), span };
    const at = this.tokenEnd(this.token(node, 'Validation'), after);
    const checks = this.tokens(node, 'StringLiteral').map((token) => this.string(token, at));
    return { kind: 'TestExpectSkillValidation', passed: this.token(node, 'Passed') !== undefined, checks, span };
  }

  private skillOutputEntries(node: CstNode | undefined, fallback: number): A.SkillOutputExpectation[] {
    const start = this.spanOf(node, fallback).offset;
    return this.nodes(node, 'skillOutputEntry').map((entry) => {
      const entrySpan = this.spanOf(entry, start);
      const key = this.identifier(this.token(entry, 'PropertyName'), entrySpan.offset);
      const contains = this.token(entry, 'Contains');
      if (contains) {
        const text = this.string(this.token(entry, 'StringLiteral'), this.tokenEnd(contains, key.span.endOffset));
        return { key, match: 'contains' as const, value: { kind: 'ValueScalar', value: text.value, span: text.span }, span: entrySpan };
      }
      const value = this.value(this.node(entry, 'value'), this.tokenEnd(this.token(entry, 'Colon'), key.span.endOffset));
      return { key, match: 'equals' as const, value, span: entrySpan };
    });
  }

  private value(node: CstNode | undefined, fallback: number): A.Value {
    const span = this.spanOf(node, fallback);
    const list = this.node(node, 'valueList');
    if (list) return this.valueList(list, fallback);
    const record = this.node(node, 'valueRecord');
    if (record) return this.valueRecord(record, fallback);
    const number = this.node(node, 'signedNumber');
    if (number) return { kind: 'ValueScalar', value: this.signedNumber(number, fallback).value, span };
    const string = this.token(node, 'StringLiteral');
    if (string?.tokenType === t.TooDeep) return { kind: 'ValueScalar', value: null, tooDeep: true, span };
    if (string) return { kind: 'ValueScalar', value: stringValue(string), span };
    if (this.token(node, 'True')) return { kind: 'ValueScalar', value: true, span };
    if (this.token(node, 'False')) return { kind: 'ValueScalar', value: false, span };
    return { kind: 'ValueScalar', value: null, span };
  }

  private valueRecord(node: CstNode | undefined, fallback: number): A.ValueRecord {
    const span = this.spanOf(node, fallback);
    const entries = this.nodes(node, 'valueEntry').map((entry) => {
      const entrySpan = this.spanOf(entry, span.offset);
      const key = this.identifier(this.token(entry, 'PropertyName'), entrySpan.offset);
      const value = this.value(this.node(entry, 'value'), this.tokenEnd(this.token(entry, 'Colon'), key.span.endOffset));
      return { key, value, span: entrySpan };
    });
    return { kind: 'ValueRecord', entries, span };
  }

  private valueList(node: CstNode | undefined, fallback: number): A.ValueList {
    const span = this.spanOf(node, fallback);
    const items = this.nodes(node, 'value').map((item) => this.value(item, span.offset));
    return { kind: 'ValueList', items, span };
  }

  // ── Expressions ─────────────────────────────────────────────────────────

  /** The expression under an `expression` CST node; `MissingExpr` at `fallback` if absent. */
  expression(node: CstNode | undefined, fallback: number): A.Expr {
    if (!node) return this.missing(fallback);
    const conditional = this.node(node, 'conditional');
    if (conditional) return this.conditional(conditional, fallback);
    return this.binaryChain(this.node(node, 'logical'), 'comparison', fallback, (n, f) => this.comparison(n, f));
  }

  private missing(at: number): A.MissingExpr {
    return { kind: 'MissingExpr', span: this.lines.point(at) };
  }

  private conditional(node: CstNode, fallback: number): A.ConditionalExpr {
    const span = this.spanOf(node, fallback);
    const condition = this.expression(this.node(node, 'expression'), this.tokenEnd(this.token(node, 'If'), span.offset));
    const consequent = this.expression(this.node(node, 'expression', 1), this.tokenEnd(this.token(node, 'Then'), condition.span.endOffset));
    const elseToken = this.token(node, 'Else');
    const alternate = elseToken ? this.expression(this.node(node, 'expression', 2), this.tokenEnd(elseToken, span.endOffset)) : undefined;
    return { kind: 'ConditionalExpr', condition, consequent, ...(alternate && { alternate }), span };
  }

  /**
   * `operand (operator operand)*` (the `logical` and `arithmetic` rules) → a tree built by
   * precedence over BINARY_PRECEDENCE: left-associative, except `??`.
   */
  private binaryChain(
    node: CstNode | undefined,
    operandKey: string,
    fallback: number,
    build: (node: CstNode | undefined, fallback: number) => A.Expr,
  ): A.Expr {
    const operandNodes = this.nodes(node, operandKey);
    const operatorTokens = (node?.children['operator'] ?? []) as IToken[];
    const first = build(operandNodes[0], fallback);
    if (operatorTokens.length === 0) return first;

    const operands: A.Expr[] = [first];
    const operators: { operator: A.BinaryOperator; span: Span }[] = [];
    for (let i = 0; i < operatorTokens.length; i++) {
      const token = operatorTokens[i]!;
      const previousEnd = operands[i]!.span.endOffset;
      const span = Number.isNaN(token.startOffset) ? this.lines.point(previousEnd) : tokenSpan(token, this.lines);
      const operator = spelling(token) as A.BinaryOperator;
      operators.push({ operator, span });
      operands.push(build(operandNodes[i + 1], span.endOffset));
    }

    // Operator precedence with an explicit stack (shunting-yard), not recursion: a chain can
    // be 10,000 operands long, and `a ?? b ?? …` nests to the right.
    const values: A.Expr[] = [first];
    const pending: { operator: A.BinaryOperator; span: Span; precedence: number }[] = [];
    const reduce = (): void => {
      const { operator, span } = pending.pop()!;
      const right = values.pop()!;
      const left = values.pop()!;
      values.push(binary(operator, left, right, span));
    };
    for (let i = 0; i < operators.length; i++) {
      const { operator, span } = operators[i]!;
      const precedence = BINARY_PRECEDENCE[operator];
      const rightAssociative = RIGHT_ASSOCIATIVE.has(operator);
      for (let top = pending[pending.length - 1]; top !== undefined; top = pending[pending.length - 1]) {
        if (top.precedence < precedence || (top.precedence === precedence && rightAssociative)) break;
        reduce();
      }
      pending.push({ operator, span, precedence });
      values.push(operands[i + 1]!);
    }
    while (pending.length > 0) reduce();
    return values[0]!;
  }

  private comparison(node: CstNode | undefined, fallback: number): A.Expr {
    const nots = this.tokens(node, 'not');
    const start = nots.length > 0 ? this.tokenEnd(nots[nots.length - 1], fallback) : fallback;
    let expr = this.comparisonBody(node, start);
    for (let i = nots.length - 1; i >= 0; i--) {
      const notSpan = tokenSpan(nots[i]!, this.lines);
      expr = { kind: 'UnaryExpr', operator: 'not', operand: expr, span: joinSpans(notSpan, expr.span) };
    }
    return expr;
  }

  private arithmetic(node: CstNode | undefined, fallback: number): A.Expr {
    return this.binaryChain(node, 'operand', fallback, (n, f) => this.operand(n, f));
  }

  private comparisonBody(node: CstNode | undefined, fallback: number): A.Expr {
    const operands = this.nodes(node, 'arithmetic');
    const left = this.arithmetic(operands[0], fallback);

    const is = this.token(node, 'Is');
    if (is) {
      const end = this.token(node, 'Null') ?? this.token(node, 'isNot') ?? is;
      return {
        kind: 'NullCheckExpr',
        operand: left,
        negated: this.token(node, 'isNot') !== undefined,
        span: joinSpans(left.span, tokenSpan(end, this.lines)),
      };
    }

    const length = this.token(node, 'Length');
    const comparisonOperator = this.node(node, 'comparisonOperator');
    if (length) {
      const operatorToken = this.token(comparisonOperator, 'operator');
      const at = this.tokenEnd(operatorToken, this.tokenEnd(length, left.span.endOffset));
      const limit = this.arithmetic(operands[1], at);
      return {
        kind: 'LengthExpr',
        operand: left,
        operator: (operatorToken ? spelling(operatorToken) : '<') as A.ComparisonOperator,
        limit,
        span: joinSpans(left.span, limit.span),
      };
    }

    if (comparisonOperator) {
      const operatorToken = this.token(comparisonOperator, 'operator');
      const operatorSpan = operatorToken ? tokenSpan(operatorToken, this.lines) : this.lines.point(left.span.endOffset);
      const right = this.arithmetic(operands[1], operatorSpan.endOffset);
      return binary((operatorToken ? spelling(operatorToken) : '==') as A.BinaryOperator, left, right, operatorSpan);
    }

    const textOperator = this.node(node, 'textOperator');
    if (textOperator) {
      const words = [
        this.token(textOperator, 'Not'),
        this.token(textOperator, 'EqualsWord') ??
          this.token(textOperator, 'In') ??
          this.token(textOperator, 'ContainsAny') ??
          this.token(textOperator, 'Contains') ??
          this.token(textOperator, 'Matches'),
      ].filter((word): word is IToken => word !== undefined);
      const first = words[0];
      const last = words[words.length - 1];
      const operatorSpan =
        first && last
          ? this.lines.span(first.startOffset, this.tokenEnd(last, first.startOffset))
          : this.lines.point(left.span.endOffset);
      const operator = words.map((word) => (word.tokenType === t.Not ? 'NOT' : spelling(word))).join(' ');
      const right = this.arithmetic(operands[1], operatorSpan.endOffset);
      // A lone `NOT` is only left behind by error recovery (already reported as a syntax
      // error): the comparison has no meaning, so the checker sees a placeholder.
      if (!isBinaryOperator(operator)) return { kind: 'MissingExpr', span: joinSpans(left.span, right.span) };
      return binary(operator, left, right, operatorSpan);
    }
    return left;
  }

  /** `-`* primary `.field`*: members bind tighter than the minus signs. */
  private operand(node: CstNode | undefined, fallback: number): A.Expr {
    const negations = this.tokens(node, 'negate');
    const start = negations.length > 0 ? this.tokenEnd(negations[negations.length - 1], fallback) : fallback;
    let expr = this.primary(node, start);
    for (const property of this.tokens(node, 'PropertyName')) {
      const name = this.identifier(property, expr.span.endOffset);
      expr = { kind: 'MemberExpr', object: expr, property: name, span: joinSpans(expr.span, name.span) };
    }
    for (let i = negations.length - 1; i >= 0; i--) {
      const minusSpan = tokenSpan(negations[i]!, this.lines);
      expr = { kind: 'UnaryExpr', operator: '-', operand: expr, span: joinSpans(minusSpan, expr.span) };
    }
    return expr;
  }

  private primary(node: CstNode | undefined, fallback: number): A.Expr {
    if (!node) return this.missing(fallback);
    const name = this.token(node, 'Name');
    if (name) return this.nameOrCall(node, name);
    const list = this.node(node, 'listLiteral');
    if (list) {
      const span = this.spanOf(list, fallback);
      const items = this.nodes(list, 'expression').map((item) => this.expression(item, span.endOffset));
      return { kind: 'ListExpr', items, span };
    }
    const parenthesized = this.node(node, 'parenthesized');
    if (parenthesized) {
      return this.expression(this.node(parenthesized, 'expression'), this.endOf(parenthesized, fallback));
    }
    const token =
      this.token(node, 'Number') ??
      this.token(node, 'StringLiteral') ??
      this.token(node, 'Duration') ??
      this.token(node, 'True') ??
      this.token(node, 'False') ??
      this.token(node, 'Null');
    if (!token) return this.missing(fallback);
    const span = tokenSpan(token, this.lines);
    switch (token.tokenType) {
      case t.TooDeep:
        // Nested deeper than the limit (reported, ADEC1010): never checked.
        return { kind: 'MissingExpr', names: namesIn(token.image), span };
      case t.NumberToken:
        return numberLiteral(token, span);
      case t.Duration: {
        // An invalid unit (`5y`) was reported by the lexer: the checker sees a placeholder.
        const milliseconds = durationMilliseconds(token.image);
        if (milliseconds === undefined) return { kind: 'MissingExpr', span };
        return { kind: 'DurationLiteral', milliseconds, text: token.image, span };
      }
      case t.True:
        return { kind: 'BooleanLiteral', value: true, span };
      case t.False:
        return { kind: 'BooleanLiteral', value: false, span };
      case t.Null:
        return { kind: 'NullLiteral', span };
      default:
        return { kind: 'StringLiteral', value: stringValue(token), span };
    }
  }

  private nameOrCall(node: CstNode, nameToken: IToken): A.Expr {
    const name = this.identifier(nameToken, nameToken.startOffset);
    const open = node.children['LParen']?.[0] as IToken | undefined;
    if (!open) return { kind: 'NameExpr', name: name.name, span: name.span };
    const close = this.token(node, 'RParen');
    const args = this.nodes(node, 'expression').map((arg) => this.expression(arg, this.tokenEnd(open, name.span.endOffset)));
    const end = close ? this.tokenEnd(close, 0) : Math.max(name.span.endOffset, ...args.map((arg) => arg.span.endOffset));
    return { kind: 'CallExpr', callee: name, args, span: this.lines.span(name.span.offset, end) };
  }
}



// ── Helpers ─────────────────────────────────────────────────────────────────

/** The distinct names in `text` that are not field names (after `.`), strings included. */
function namesIn(text: string): string[] {
  return [...new Set(text.match(/(?<!\.\s*)(?<!\w)[A-Za-z_]\w*/g))];
}

/**
 * How a keyword or an operator token reads in the AST: by its type, not its text, so a token
 * the parser repaired (`contains` read as `CONTAINS`, syntax-repair.ts) reads as what it was
 * taken for.
 */
function spelling(token: IToken): string {
  return token.tokenType.LABEL ?? token.image;
}

function isBinaryOperator(text: string): text is A.BinaryOperator {
  return Object.hasOwn(BINARY_PRECEDENCE, text);
}

function binary(operator: A.BinaryOperator, left: A.Expr, right: A.Expr, operatorSpan: Span): A.BinaryExpr {
  return { kind: 'BinaryExpr', operator, left, right, operatorSpan, span: joinSpans(left.span, right.span) };
}

function numberLiteral(token: IToken, span: Span): A.NumberLiteral {
  return { kind: 'NumberLiteral', value: Number(token.image), isInteger: isIntegerText(token.image), span };
}

/** The text of a string token without its quotes; `\"` (or `\'`) becomes the quote. */
export function stringValue(token: IToken): string {
  const image = token.image;
  const quote = image[0]!;
  const body = token.tokenType === t.UnterminatedString ? image.slice(1) : image.slice(1, -1);
  return body.includes('\\') ? body.split(`\\${quote}`).join(quote) : body;
}

/*
 * Node extents are computed from tokens on demand rather than tracked by the parser
 * (`nodeLocationTracking`): most CST nodes are expression levels whose spans are built from
 * their parts, and not allocating a location for each halves the garbage on large worlds.
 */

// The three walks below are hot (every span of a declaration or clause): they iterate with
// `for…in` and indices, allocating nothing. `children` has no prototype (Object.create(null)),
// so `for…in` visits exactly the own keys, in the same order as Object.values.

/** The offset of the first real token under `node`. */
export function firstOffset(node: CstNode | undefined): number | undefined {
  if (node === undefined) return undefined;
  const children = node.children;
  let first: number | undefined;
  for (const key in children) {
    const list = children[key] as Child[];
    for (let i = 0; i < list.length; i++) {
      const child = list[i]!;
      let offset: number | undefined;
      if ('image' in child) {
        if (child.isInsertedInRecovery || Number.isNaN(child.startOffset)) continue;
        offset = child.startOffset;
      } else {
        offset = firstOffset(child);
        if (offset === undefined) continue;
      }
      if (first === undefined || offset < first) first = offset;
      // Children are added in parse order, and tokens are consumed in source order, so
      // nothing under a later key starts before the first child of an earlier key: when the
      // first child of a key has a position, it is the answer.
      if (i === 0) return first;
      break; // children under one key are in source order
    }
  }
  return first;
}

/**
 * The end offset (exclusive) of the last real token under `node`. As children are added in
 * source order, that is the end of the child (the last one with a position under its key)
 * that starts last: only that child is walked into.
 */
export function lastEnd(node: CstNode | undefined): number | undefined {
  if (node === undefined) return undefined;
  const children = node.children;
  let lastStart = -1;
  let last: Child | undefined;
  for (const key in children) {
    const list = children[key] as Child[];
    for (let i = list.length - 1; i >= 0; i--) {
      const child = list[i]!;
      let start: number | undefined;
      if ('image' in child) {
        if (child.isInsertedInRecovery || Number.isNaN(child.startOffset)) continue;
        start = child.startOffset;
      } else {
        start = firstOffset(child);
        if (start === undefined) continue;
      }
      if (start > lastStart) {
        lastStart = start;
        last = child;
      }
      break;
    }
  }
  if (last === undefined) return undefined;
  return 'image' in last ? last.startOffset + last.image.length : lastEnd(last);
}

/** The earliest real token directly under `node` (the keyword that starts a clause). */
function firstToken(node: CstNode | undefined): IToken | undefined {
  if (node === undefined) return undefined;
  const children = node.children;
  let first: IToken | undefined;
  for (const key in children) {
    const list = children[key] as Child[];
    for (let i = 0; i < list.length; i++) {
      const child = list[i]!;
      if (!('image' in child) || child.isInsertedInRecovery || Number.isNaN(child.startOffset)) continue;
      if (first === undefined || child.startOffset < first.startOffset) first = child;
    }
  }
  return first;
}
