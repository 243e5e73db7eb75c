/**
 * The helper functions of a bundle, known by content: each is a function of the ABI's helper
 * library (@adec/abi helper-library.ts) and its text, from `function` to its closing brace,
 * has the SHA-256 the library's bundled form has (bundle-forms.generated.ts). Helpers
 * are the only code with statements, loops and locals in a module, so they are compared whole
 * rather than read by the expression grammar.
 */
import { createHash } from 'node:crypto';
import { HELPER_BUNDLE_SHA256, HELPER_NAMES, type HelperName } from '@adec/abi';
import type { FunctionDeclaration } from 'acorn';
import { refusal, type Refusal } from './refusal.js';

export interface LibraryHelper {
  readonly name: HelperName;
  /** Its place in the order a module declares helpers. */
  readonly order: number;
}

const HELPERS: ReadonlyMap<string, LibraryHelper> = new Map(HELPER_NAMES.map((name, order) => [name, { name, order }]));

/** The library's helper of that name, or undefined. */
export function libraryHelper(name: string): LibraryHelper | undefined {
  return HELPERS.get(name);
}

/** Whether the declaration is the library's helper `name`, byte for byte. */
export function checkHelper(declaration: FunctionDeclaration, { name }: LibraryHelper, source: string): Refusal | undefined {
  const hash = createHash('sha256').update(source.slice(declaration.start, declaration.end)).digest('hex');
  if (hash === HELPER_BUNDLE_SHA256[name]) return undefined;
  return refusal(declaration, `the function \`${name}\` is not the helper library's \`${name}\` (its text hashes to sha256:${hash.slice(0, 16)}…)`);
}
