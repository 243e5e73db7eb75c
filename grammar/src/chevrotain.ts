/**
 * Chevrotain's runtime, loaded from its single-file ES module build.
 *
 * The package entry point (`chevrotain` → lib/src/api.js) is about a hundred modules that
 * import lodash-es, which is several hundred more: loading that graph took ~450 ms of every
 * `adec` process, more than building the parser. The package also ships the same code bundled
 * in one file (lib/chevrotain.mjs, listed in its `files`, same version), which loads in ~50
 * ms; its `exports` map does not name it, so it is located next to the resolved entry point.
 * If it is ever missing, the ordinary entry point is used.
 *
 * Every value import of Chevrotain in grammar/src goes through this module, so there is one
 * copy of its classes and token types (`EOF`). Type-only imports use 'chevrotain' directly.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

type Chevrotain = typeof import('chevrotain');

async function load(): Promise<Chevrotain> {
  try {
    const entry = createRequire(import.meta.url).resolve('chevrotain'); // …/chevrotain/lib/src/api.js
    const bundle = new URL('../chevrotain.mjs', pathToFileURL(entry));
    if (existsSync(bundle)) {
      const loaded = (await import(bundle.href)) as Chevrotain;
      if (typeof loaded.CstParser === 'function' && typeof loaded.createToken === 'function') return loaded;
    }
  } catch {
    // fall through to the package entry point
  }
  return import('chevrotain');
}

const chevrotain = await load();

export const { CstParser, Lexer, EOF, createToken, createSyntaxDiagramsCode, tokenMatcher } = chevrotain;
