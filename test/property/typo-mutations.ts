/**
 * One-character typos of real worlds, one per token, and what the checker makes of each
 * (issue 13: "diagnostics a person fixes in one go"; issue 31 adds a world of scenarios, skills,
 * templates and skill tests). Every token of the example worlds that an author types by hand
 * gets one deterministic mutation, chosen by its role:
 *
 *   name           a reference to a declaration or a built-in: an attribute in an expression
 *                  (inside a `"{…}"` placeholder too), a field after `.`, a function, a type, a
 *                  rule in `suppresses` or `by`, a skill, an action type, a test's action or
 *                  scenario, a key of a test value or of `expect skill output`, a field of a
 *                  skill's `action_metadata` or `user_state` (they restate what the action type
 *                  and the scenario provide), a check a skill test expects to fail, the candidate
 *                  a selection test expects selected
 *   keyword        a keyword or clause word: `rule`, `when`, `and`, `CONTAINS`, a world
 *                  setting (`org`), a work_frame field (`next_action`)
 *   enum member    a member of a closed set: a string of an enum type where it is used, an
 *                  action type's name as a string (`type: "lesson"`, `action.type == "lesson"`),
 *                  an outcome, severity, status, aggregation mode, skill type or default mode
 *   number↔string  a number written as a string (`"26"`), a string written as a number
 *   duration unit  a typo in the unit of a duration, deleting it included (`180d` → `180`), in a
 *                  test's data too (`"14d"` → `"14"`: a bare number there is milliseconds)
 *
 * A typo is a deletion, an insertion, a substitution or a transposition of one character, from a
 * random generator seeded by the token's place, so the set is the same on every run.
 * Declarations (a rule's id, an attribute's name, an enum's members, a template's name) are not
 * mutated: renaming a declaration is a valid edit, and whatever refers to it is mutated as a name
 * of its own.
 *
 * A verdict records whether the checker reports an error on the mutated line, and whether a
 * diagnostic there names the original word in its help or notes (a did-you-mean). A typo that
 * lands on another word of its kind (`t2` → `t3`, `180d` → `180h`) and checks clean still means a
 * valid world: it is counted apart, never as a miss.
 */
import { checkSources, type WorldSources } from '@adec/compiler';
import type { Diagnostic } from '@adec/diagnostics';
import { durationMilliseconds, parseSource, sourceTokens, type SourceToken } from '@adec/grammar';
import { internalNameIn } from './internal-names.js';

export const TYPO_CATEGORIES = ['name', 'keyword', 'enum member', 'number↔string', 'duration unit'] as const;
export type TypoCategory = (typeof TYPO_CATEGORIES)[number];

export interface TypoMutation {
  readonly category: TypoCategory;
  readonly file: string;
  /** 1-based line of the mutated token. */
  readonly line: number;
  readonly offset: number;
  /** The text replaced and its replacement: the whole token, or the part the typo is in. */
  readonly original: string;
  readonly replacement: string;
}

/**
 * `passes its tests` is given after the check, by typo-world-tests.ts: an accepted typo whose
 * world still builds and passes every test.
 */
export type TypoOutcome = 'rejected on its line' | 'rejected elsewhere only' | 'accepted' | 'another valid word' | 'passes its tests';

export interface TypoVerdict {
  readonly mutation: TypoMutation;
  readonly outcome: TypoOutcome;
  /** A diagnostic on the mutated line names the original word in its help or notes. */
  readonly didYouMean: boolean;
  /** Errors are reported on other lines too: a cascade, unless the typo really breaks them. */
  readonly errorsElsewhere: boolean;
  /** A diagnostic that names an internal of adec (`<error>`), with the name. */
  readonly internalName?: string;
  /** The first diagnostic on the mutated line, else the first of the world: what the author reads first. */
  readonly firstDiagnostic?: Diagnostic;
}

// ── Roles ───────────────────────────────────────────────────────────────────

type Role = 'name' | 'keyword' | 'enum member' | 'declaration';

/**
 * The role of an identifier by its place in the AST: `<node kind>.<property path>`. A place
 * missing here fails the run (`roleOf`), so a new kind of node is classified, not skipped.
 */
const IDENTIFIER_ROLES: ReadonlyMap<string, Role> = new Map([
  ['ContextAttributeDecl.name', 'declaration'],
  ['ActionDecl.name', 'declaration'],
  ['RuleDecl.id', 'declaration'],
  ['SkillDecl.id', 'declaration'],
  ['SkillTemplateDecl.name', 'declaration'],
  ['ScenarioDecl.id', 'declaration'],
  ['ActionTypeDecl.name', 'declaration'],
  ['ObjectiveDecl.name', 'declaration'],
  ['FieldDecl.name', 'declaration'],
  ['ExecutionRiskDecl.factors.name', 'declaration'],
  ['WorldSetting.key', 'keyword'],
  ['WorkFrameFieldDecl.name', 'keyword'],
  ['AggregationClause.mode', 'enum member'],
  ['MemberExpr.property', 'name'],
  ['CallExpr.callee', 'name'],
  ['NamedType.name', 'name'],
  ['SuppressesClause.rules', 'name'],
  ['SkillFallback.skill', 'name'],
  ['ActionTypeDecl.skill', 'name'],
  ['ForceEffect.actionType', 'name'],
  ['TestAction.action', 'name'],
  ['TestScenario.scenario', 'name'],
  ['TestExpectStatus.rule', 'name'],
  ['ValueRecord.entries.key', 'name'],
  ['SkillTemplateDecl.fields.name', 'name'],
  ['TestExpectSkillOutput.fields.key', 'name'],
]);

/**
 * Field lists that restate what another part of the world declares: a skill's `action_metadata`
 * names fields of the action types that use it, its `user_state` signals or state of their
 * scenario. Their field names and enum members are references, mutated as such.
 */
const RESTATING_FIELD_LISTS: ReadonlySet<string> = new Set(['SkillActionMetadata.fields', 'SkillUserState.fields']);

/**
 * Quoted references to an id declared elsewhere: a check a skill test expects to fail (an
 * invariant's or prohibition's id, or a check of the contract) and the candidate a selection
 * test expects selected (an `action_id` of its `actions`).
 */
const QUOTED_REFERENCES: ReadonlySet<string> = new Set(['TestExpectSkillValidation.checks', 'TestExpectSelected.actionId']);

interface WorldWords {
  /** Role of the word token at each offset (identifiers, soft keywords used as names, words). */
  readonly roles: ReadonlyMap<number, Role>;
  /** String literals that declare an enum member. */
  readonly enumDeclarations: ReadonlySet<number>;
  /** String literals that refer to an id declared elsewhere (`QUOTED_REFERENCES`). */
  readonly quotedReferences: ReadonlySet<number>;
  /**
   * Every member of a closed set of strings in the world: the enum members, and the action
   * types (a candidate's `type`, `action.type == "lesson"`).
   */
  readonly closedSetMembers: ReadonlySet<string>;
}

/** Walks a file's AST and records the role of every word in it, by offset. */
function worldWords(path: string, text: string, closedSetMembers: Set<string>): WorldWords {
  const roles = new Map<number, Role>();
  const enumDeclarations = new Set<number>();
  const quotedReferences = new Set<number>();
  const visit = (value: unknown, place: string, restated: boolean): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, place, restated);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const node = value as { kind?: string; span?: { offset: number }; [key: string]: unknown };
    switch (node.kind) {
      case 'Identifier':
        roles.set(node.span!.offset, identifierRole(place, restated));
        return;
      case 'NameExpr':
        roles.set(node.span!.offset, 'name');
        return;
      case 'Word':
        roles.set(node.span!.offset, 'enum member');
        return;
      case 'StringLiteral':
        if (QUOTED_REFERENCES.has(place)) quotedReferences.add(node.span!.offset);
        return;
      case 'EnumType':
        for (const member of node['members'] as { value: string; span: { offset: number } }[]) {
          closedSetMembers.add(member.value);
          if (!restated) enumDeclarations.add(member.span.offset);
        }
        return;
      case 'ActionTypeDecl':
        closedSetMembers.add((node['name'] as { name: string }).name);
        break;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'span' || key === 'kind') continue;
      const childPlace = node.kind === undefined ? `${place}.${key}` : `${node.kind}.${key}`;
      visit(child, childPlace, restated || RESTATING_FIELD_LISTS.has(childPlace));
    }
  };
  const parsed = parseSource(path, text);
  if (parsed.diagnostics.length > 0) throw new Error(`${path} must parse cleanly to be mutated`);
  visit(parsed.file, 'SourceFile', false);
  return { roles, enumDeclarations, quotedReferences, closedSetMembers };
}

/** The role of an identifier at `place`: a field name in a restating list is a reference. */
function identifierRole(place: string, restated: boolean): Role {
  return restated && place === 'FieldDecl.name' ? 'name' : roleOf(place);
}

function roleOf(place: string): Role {
  const role = IDENTIFIER_ROLES.get(place);
  if (role === undefined) throw new Error(`no typo role for an identifier at ${place}: add it to IDENTIFIER_ROLES`);
  return role;
}

// ── Typos ───────────────────────────────────────────────────────────────────

const DURATION_UNITS = ['ms', 's', 'm', 'h', 'd'];
const TYPO_SEED = 13;

/** A generator of numbers in [0, 1) seeded by a text (FNV-1a, then mulberry32). */
function seededRandom(seedText: string): () => number {
  let state = 2166136261 ^ TYPO_SEED;
  for (let i = 0; i < seedText.length; i++) state = Math.imul(state ^ seedText.charCodeAt(i), 16777619);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One deletion, insertion, substitution or transposition of a character of `word`, never
 * `word` itself; empty only when `allowEmpty` (a duration whose unit is deleted).
 */
export function oneCharacterTypo(word: string, random: () => number, allowEmpty = false): string {
  const alphabet = /[a-z]/.test(word) || !/[A-Z]/.test(word) ? 'abcdefghijklmnopqrstuvwxyz' : 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const pick = (n: number) => Math.floor(random() * n);
  for (;;) {
    const at = pick(word.length);
    const letter = alphabet[pick(alphabet.length)]!;
    let result: string;
    switch (pick(4)) {
      case 0:
        result = word.slice(0, at) + word.slice(at + 1);
        break;
      case 1:
        result = word.slice(0, at) + letter + word.slice(at);
        break;
      case 2:
        result = word.slice(0, at) + letter + word.slice(at + 1);
        break;
      default:
        result = at + 1 < word.length ? word.slice(0, at) + word[at + 1]! + word[at]! + word.slice(at + 2) : word;
    }
    if (result !== word && (result.length > 0 || allowEmpty)) return result;
  }
}

/** Every mutation of one file of a world: one per token that has a category. */
export function fileMutations(path: string, text: string, closedSetMembers: Set<string>): TypoMutation[] {
  const words = worldWords(path, text, closedSetMembers);
  const mutations: TypoMutation[] = [];
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
  const add = (category: TypoCategory, offset: number, original: string, replacement: string) =>
    mutations.push({ category, file: path, line: lineOf(offset), offset, original, replacement });

  const tokens = sourceTokens(text);
  for (const token of tokens) {
    const random = seededRandom(`${path}:${token.offset}`);
    const category = tokenCategory(token, words);
    if (category === undefined) continue;
    if (category === 'number↔string') {
      add(category, token.offset, token.image, isNumber(token) ? `"${token.image}"` : String(token.image.length));
      continue;
    }
    // The word typed: a string's text without its quotes, a duration's unit.
    const word = isString(token) ? { offset: token.offset + 1, text: token.image.slice(1, -1) } : { offset: token.offset, text: token.image };
    if (category === 'duration unit') {
      const unit = /[A-Za-z_]+$/.exec(word.text)![0];
      add(category, word.offset + word.text.length - unit.length, unit, oneCharacterTypo(unit, random, true));
    } else add(category, word.offset, word.text, oneCharacterTypo(word.text, random));
  }
  // Names inside interpolated strings are no tokens of their own.
  const tokenOffsets = new Set(tokens.map((token) => token.offset));
  for (const [offset, role] of words.roles) {
    if (tokenOffsets.has(offset) || role !== 'name') continue;
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(offset))![0];
    add('name', offset, name, oneCharacterTypo(name, seededRandom(`${path}:${offset}`)));
  }
  return mutations.sort((a, b) => a.offset - b.offset);
}

function isNumber(token: SourceToken): boolean {
  return token.type === 'Number';
}

function isString(token: SourceToken): boolean {
  return token.type === 'DoubleQuotedString' || token.type === 'SingleQuotedString';
}

function tokenCategory(token: SourceToken, words: WorldWords): TypoCategory | undefined {
  if (isNumber(token)) return 'number↔string';
  if (token.type === 'Duration') return 'duration unit';
  if (isString(token)) {
    const text = token.image.slice(1, -1);
    if (words.enumDeclarations.has(token.offset)) return undefined;
    if (words.quotedReferences.has(token.offset)) return 'name';
    if (words.closedSetMembers.has(text)) return 'enum member';
    // A duration in a test's data (`"14d"`): a number there is a valid duration in milliseconds.
    return durationMilliseconds(text) !== undefined ? 'duration unit' : 'number↔string';
  }
  const role = words.roles.get(token.offset);
  if (role !== undefined) return role === 'declaration' ? undefined : role;
  // A keyword the AST holds no word for: it is the keyword itself (`rule`, `when`, `and`).
  return /^[A-Za-z]/.test(token.image) ? 'keyword' : undefined;
}

/** Every mutation of a world, file by file. */
export function worldMutations(world: WorldSources): TypoMutation[] {
  const closedSetMembers = new Set<string>();
  // Closed sets first: a use may come in an earlier file than the declaration.
  for (const file of world.files) worldWords(file.path, file.text, closedSetMembers);
  return world.files.flatMap((file) => fileMutations(file.path, file.text, closedSetMembers));
}

// ── Verdicts ────────────────────────────────────────────────────────────────

export function applyMutation(world: WorldSources, mutation: TypoMutation): WorldSources {
  return {
    root: world.root,
    files: world.files.map((file) =>
      file.path !== mutation.file
        ? file
        : {
            path: file.path,
            text: file.text.slice(0, mutation.offset) + mutation.replacement + file.text.slice(mutation.offset + mutation.original.length),
          },
    ),
  };
}

/** The words a typo may land on and still mean a valid world: any word or string of the world, any unit. */
export function validWords(world: WorldSources): Set<string> {
  const words = new Set<string>(DURATION_UNITS);
  for (const file of world.files) {
    for (const token of sourceTokens(file.text)) words.add(isString(token) ? token.image.slice(1, -1) : token.image);
  }
  return words;
}

export function judge(world: WorldSources, mutation: TypoMutation, valid: ReadonlySet<string>): TypoVerdict {
  const { diagnostics } = checkSources(applyMutation(world, mutation));
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const onLine = diagnostics.filter((d) => d.span.file === mutation.file && d.span.line === mutation.line);
  const errorOnLine = onLine.some((d) => d.severity === 'error');
  const outcome: TypoOutcome =
    errorOnLine ? 'rejected on its line'
    : errors.length > 0 ? 'rejected elsewhere only'
    : valid.has(mutation.replacement) ? 'another valid word'
    : 'accepted';
  const firstDiagnostic = onLine[0] ?? errors[0] ?? diagnostics[0];
  const internalName = diagnostics.map(internalNameIn).find((name) => name !== undefined);
  return {
    mutation,
    outcome,
    didYouMean: onLine.some((d) => namesOriginal(d, mutation.original)),
    errorsElsewhere: errors.some((d) => d.span.file !== mutation.file || d.span.line !== mutation.line),
    ...(firstDiagnostic !== undefined && { firstDiagnostic }),
    ...(internalName !== undefined && { internalName }),
  };
}

/** Whether the help or a note of `d` quotes `word` as a name (`` `when` ``) or a value (`"child"`). */
function namesOriginal(d: Diagnostic, word: string): boolean {
  const texts = [d.help ?? '', ...(d.notes ?? [])];
  return texts.some((text) => text.includes(`\`${word}\``) || text.includes(`"${word}"`));
}
