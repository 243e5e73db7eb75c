/** Bundling (pipeline step 4): the generated module as one self-contained, deterministic script. */
export { BUNDLE_GLOBAL_NAME, bundleModule } from './bundle-module.js';
