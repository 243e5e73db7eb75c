/**
 * Pipeline step 4: the generated module as one self-contained script for the sandbox.
 *
 * esbuild with a fixed configuration: an IIFE assigning the module's exports to
 * `var __adec_module`, ES2022, no minification (the bundle stays readable), no source map,
 * no file system access (the source comes from stdin and imports nothing). The generated
 * header is carried over as a banner, since esbuild drops ordinary comments. esbuild output
 * is a pure function of its input and options, so identical input gives identical bytes.
 *
 * Non-ASCII characters in strings are written as escapes (`charset: 'ascii'`), and the
 * comments the generator writes are ASCII, so the bundle is ASCII unless a source file's
 * name is not: V8 then holds it in one byte per character instead of two, and decoding it,
 * on the host and in the sandbox process, takes a third of the time (bench/RESULTS.md).
 */
import { createRequire } from 'node:module';
import { BUNDLE_GLOBAL_NAME } from '@adec/abi';

// Required, not imported: importing a CommonJS package from an ES module makes Node scan its
// source for export names, time every `adec` process paid (see generate/ts-morph.ts).
const { build } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');

export { BUNDLE_GLOBAL_NAME };

export async function bundleModule(source: string): Promise<string> {
  const banner = leadingLineComments(source);
  const result = await build({
    stdin: { contents: source, loader: 'ts', sourcefile: 'module.ts' },
    bundle: true,
    format: 'iife',
    globalName: BUNDLE_GLOBAL_NAME,
    platform: 'neutral',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    charset: 'ascii',
    minify: false,
    sourcemap: false,
    treeShaking: true,
    logLevel: 'silent',
    absWorkingDir: '/',
    ...(banner.length > 0 && { banner: { js: banner } }),
  });
  const output = result.outputFiles[0];
  if (output === undefined || result.outputFiles.length !== 1) {
    throw new Error(`adec bug: esbuild produced ${result.outputFiles.length} output files for one module`);
  }
  return output.text;
}

/** The `//` comment lines at the very top of the source (the generated header). */
function leadingLineComments(source: string): string {
  const lines: string[] = [];
  for (const line of source.split('\n')) {
    if (!line.startsWith('//')) break;
    lines.push(line);
  }
  return lines.join('\n');
}
