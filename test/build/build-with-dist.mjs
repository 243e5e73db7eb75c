// Builds the world named on the command line with the compiled compiler (generation on the
// worker thread) and prints its artifacts as JSON: the other half of worker-generation.test.ts.
import { buildWorld, loadWorld } from '../../packages/compiler/dist/index.js';

const result = await buildWorld(await loadWorld(process.argv[2]));
process.stdout.write(JSON.stringify(result.artifacts));
