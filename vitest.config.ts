import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources, so a test never sees a stale dist/.
    alias: {
      '@adec/abi': src('./packages/abi/src/index.ts'),
      '@adec/diagnostics': src('./packages/diagnostics/src/index.ts'),
      '@adec/grammar': src('./grammar/src/index.ts'),
      '@adec/compiler': src('./packages/compiler/src/index.ts'),
      '@adec/runtime': src('./packages/runtime/src/index.ts'),
      '@adec/audit': src('./packages/audit/src/index.ts'),
      '@adec/engine': src('./packages/engine/src/index.ts'),
      '@adec/server': src('./packages/server/src/index.ts'),
      '@adec/cli': src('./packages/cli/src/index.ts'),
    },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'grammar/test/**/*.test.ts', 'test/**/*.test.ts'],
    // isolated-vm needs --no-node-snapshot on Node 20+; forks let us pass it per worker.
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    testTimeout: 60_000,
    // One real PostgreSQL server on loopback for the run; each test file makes its own database.
    globalSetup: ['./test/support/postgres-global-setup.ts'],
  },
});
