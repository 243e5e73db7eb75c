import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** One real PostgreSQL server on loopback for a project's run; each test file makes its own database. */
const POSTGRES = './test/support/postgres-global-setup.ts';

/**
 * One project per package, its tests beside its code (`packages/<name>/test/`) and, until they
 * move there, in the root `test/` folder named for it; cross-package suites (security, property,
 * docs) are projects of their own. Only the projects that reach a PostgreSQL store start one:
 * `vitest run --project grammar` needs nothing but Node.
 */
const project = (name: string, include: string[], { postgres = false } = {}): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, globalSetup: postgres ? [POSTGRES] : [] },
});

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources.
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
    // isolated-vm needs --no-node-snapshot on Node 20+; forks let us pass it per worker.
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    testTimeout: 60_000,
    projects: [
      project('abi', ['packages/abi/test/**/*.test.ts']),
      project('diagnostics', ['packages/diagnostics/test/**/*.test.ts', 'test/diagnostics/**/*.test.ts']),
      project('grammar', ['grammar/test/**/*.test.ts']),
      project('compiler', ['packages/compiler/test/**/*.test.ts', 'test/build/**/*.test.ts', 'test/format/**/*.test.ts']),
      project('runtime', ['packages/runtime/test/**/*.test.ts', 'test/runtime/**/*.test.ts', 'test/trust/**/*.test.ts']),
      project('audit', ['packages/audit/test/**/*.test.ts', 'test/audit/**/*.test.ts'], { postgres: true }),
      project('engine', ['packages/engine/test/**/*.test.ts', 'test/engine/**/*.test.ts']),
      project('server', ['packages/server/test/**/*.test.ts', 'test/server/**/*.test.ts'], { postgres: true }),
      project('cli', ['packages/cli/test/**/*.test.ts', 'test/cli/**/*.test.ts', 'test/cli-test/**/*.test.ts']),
      project('language-server', ['packages/language-server/test/**/*.test.ts', 'test/language-server/**/*.test.ts']),
      project('security', ['test/security/**/*.test.ts']),
      project('property', ['test/property/**/*.test.ts']),
      project('docs', ['test/docs/**/*.test.ts', 'test/package/**/*.test.ts', 'test/bench/**/*.test.ts']),
    ],
  },
});
