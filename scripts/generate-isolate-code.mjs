/**
 * Bundles the TypeScript that runs inside a module's isolate into the script strings the host
 * compiles there, and writes them as generated TypeScript files (committed, so a build needs no
 * bundling step and a review sees the exact code an isolate runs).
 *
 * Each script is one entry, bundled with esbuild into an IIFE (strict, as the modules are): not minified (a stack
 * message names the function it came from), for Node 20's V8, deterministic. Modules an entry
 * imports contribute their functions and constants and nothing else (a module's top level that
 * only the host needs, such as confusable-prototypes.ts reading a package file, is dropped).
 * An isolate has no Node: a script that still imports a Node module fails the run, and so does
 * one whose code names a global an isolate lacks (`process`, `Buffer`, `setTimeout`,
 * `console`): every file that ends up in a script is type-checked again with the language's
 * own library only (ES2023, no `@types/node`).
 *
 *   npm run generate:isolate           writes the files
 *   generateIsolateCode()              the files' paths and texts, for the staleness test
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each generated file, and the script strings it exports: name, entry and what it is. */
export const GENERATED_FILES = [
  {
    path: 'packages/runtime/src/sandbox/isolate-prelude.generated.ts',
    documentedIn: 'packages/runtime/src/sandbox/isolate-prelude.ts',
    scripts: [
      { name: 'HARDEN_BEFORE_BUNDLE', entry: 'packages/runtime/src/sandbox/isolate/harden.ts', doc: 'Runs before the bundle: removes the nondeterministic and host-ish globals.' },
      { name: 'EVALUATOR_AFTER_BUNDLE', entry: 'packages/runtime/src/sandbox/isolate/evaluator.ts', doc: 'Runs after the bundle: captures the module and installs the entry points.' },
      { name: 'SEAL', entry: 'packages/runtime/src/sandbox/isolate/seal.ts', doc: 'Runs after the extensions: removes the extension hook and freezes everything.' },
      { name: 'LEGACY_ABI1_SHIM', entry: 'packages/runtime/src/sandbox/isolate/legacy-abi1-shim.ts', doc: 'Runs after an ABI 1 bundle, before the evaluator: its tables as ABI 2 (module/legacy-abi1.ts).' },
    ],
  },
  {
    path: 'packages/engine/src/selection-extension.generated.ts',
    documentedIn: 'packages/engine/src/selection-extension.ts',
    scripts: [{ name: 'SELECTION_EXTENSION_SCRIPT', entry: 'packages/engine/src/isolate/install-selection.ts', doc: 'Installs the entry points of stages 2–4 and of the skill functions.' }],
  },
];

/** Imports inside the sources are relative; each imported module is kept only for what is used of it. */
const onlyWhatIsUsed = {
  name: 'only-what-is-used',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\.?\// }, (args) => ({ path: join(args.resolveDir, args.path.replace(/\.js$/, '.ts')), sideEffects: false }));
  },
};

/** The bundled script, and the files that contributed code to it or sit beside its entry. */
async function bundle(entry) {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'neutral',
    target: 'node20',
    legalComments: 'none',
    charset: 'ascii',
    external: ['node:*'],
    metafile: true,
    logLevel: 'silent',
    plugins: [onlyWhatIsUsed],
  });
  const reached = Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((imported) => imported.path));
  if (reached.length > 0) throw new Error(`${entry} reaches ${reached.join(', ')}, which an isolate does not have`);
  const [output] = Object.values(result.metafile.outputs);
  const sources = Object.entries(output.inputs)
    .filter(([path, input]) => input.bytesInOutput > 0 || path.startsWith(`${dirname(entry)}/`))
    .map(([path]) => join(ROOT, path));
  return { text: result.outputFiles[0].text, sources };
}

/** Type errors in `sources` when only what an isolate provides is declared. */
function isolateTypeErrors(sources) {
  const base = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), ts.sys.readFile).config.compilerOptions;
  const isolateOnly = { ...base, lib: ['ES2023'], types: [], noEmit: true, composite: false, declaration: false, declarationMap: false, sourceMap: false };
  const program = ts.createProgram(sources, ts.convertCompilerOptionsFromJson(isolateOnly, ROOT).options);
  const checked = new Set(sources);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file !== undefined && checked.has(diagnostic.file.fileName))
    .map((diagnostic) => {
      const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      return `${relative(ROOT, diagnostic.file.fileName)}(${line + 1},${character + 1}): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
}

/** The text as a template literal's body: backslashes, backquotes and `${` escaped. */
const templateBody = (text) => text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

function generatedFile({ path, documentedIn, scripts }, bundled) {
  const entries = scripts.map((script) => relative(dirname(path), script.entry)).join(', ');
  const lines = [
    `// Generated by scripts/generate-isolate-code.mjs from ${entries}: do not edit.`,
    '// Regenerate with `npm run generate:isolate` (a test fails when this file is out of date).',
    `// What the scripts do and the entry points they install: ${relative(dirname(path), documentedIn)}.`,
  ];
  for (const script of scripts) lines.push('', `/** ${script.doc} */`, `export const ${script.name} = \`${templateBody(bundled.get(script.entry).text)}\`;`);
  return { path, text: lines.join('\n') + '\n' };
}

/** Every generated file's path (from the repository root) and its text. */
export async function generateIsolateCode() {
  const bundled = new Map();
  for (const script of GENERATED_FILES.flatMap((file) => file.scripts)) bundled.set(script.entry, await bundle(script.entry));
  const errors = isolateTypeErrors([...new Set([...bundled.values()].flatMap((script) => script.sources))].sort());
  if (errors.length > 0) throw new Error(`code bundled for an isolate uses what an isolate does not have:\n${errors.join('\n')}`);
  return GENERATED_FILES.map((file) => generatedFile(file, bundled));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const file of await generateIsolateCode()) {
    writeFileSync(join(ROOT, file.path), file.text);
    console.log(`wrote ${file.path}`);
  }
}
