/**
 * Code generation (pipeline step 3): the decision module's TypeScript source, its in-memory
 * type check, and the static check that it holds no forbidden construct.
 */
export { ABI_VERSION } from './abi-version.js';
export { generateModule, generatedHeader } from './generate-module.js';
export type { ModuleProvenance } from './generate-module.js';
export { typecheckModule, verifyGeneratedModule } from './typecheck-module.js';
export { generateAndVerify } from './generate-and-verify.js';
export type { GeneratedModule, ModuleGenerator } from './generate-and-verify.js';
export { generateLazily } from './generate-lazily.js';
export { findForbiddenConstructs } from './forbidden-constructs.js';
export { rulesInEvaluationOrder } from './emit-actions.js';
export { relativeSourcePath } from './source-location.js';
