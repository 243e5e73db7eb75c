/** Runs after the extensions: removes the extension hook and freezes everything (freeze-realm.ts). */
import { isolateGlobals } from './isolate-globals.js';

const seal = isolateGlobals.__adec_seal;
// Without the evaluator there is nothing to seal, and nothing may run unsealed: fail the load.
if (seal === undefined) throw new TypeError('__adec_seal is not a function');
seal();
