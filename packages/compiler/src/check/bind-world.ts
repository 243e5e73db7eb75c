/**
 * The name bindings of a world, as the checker resolves them: what the language server
 * shows for hover, go to definition and references, so editor and compiler never disagree
 * about what a name means. It works on a world with errors: whatever the checker still
 * resolves around them is bound.
 */
import type { SourceFile } from '@adec/grammar';
import { checkWorld } from './check-world.js';
import { BindingRecorder, type WorldBindings } from './name-bindings.js';

export function bindWorld(files: readonly SourceFile[]): WorldBindings {
  const recorder = new BindingRecorder();
  // The warnings analysis resolves no names of its own.
  checkWorld(files, { analyze: false, recorder });
  return recorder.bindings();
}
