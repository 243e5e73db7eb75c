import { createRequire } from 'node:module';

/**
 * The compiler version recorded in every manifest and generated-module header. Read from
 * package.json (the same relative path from src/ and dist/), so it cannot drift.
 */
export const COMPILER_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;
