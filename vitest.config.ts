import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** One real PostgreSQL server on loopback for a project's run; each test file makes its own database. */
const POSTGRES = './test/support/postgres-global-setup.ts';
/** Stops a run whose compiled dist/ is older than its sources, for the projects that run compiled code. */
const FRESH_DIST = './test/support/fresh-dist-setup.ts';

/**
 * One project per package, its tests beside its code (`packages/<name>/test/`, `grammar/test/`);
 * suites across packages (the compiler's diagnostics baselines and builds of whole worlds,
 * security, property, conformance, docs) in the root `test/` are projects of their own. Only the projects
 * that reach a PostgreSQL store start one: `vitest run --project grammar` needs nothing but
 * Node. Tests import the TypeScript sources, but some code under test runs compiled (sandbox
 * processes, the SQLite writer thread, the CLI and the language server started as processes):
 * the projects that reach it (`compiled`) refuse to run on a stale dist/.
 */
const project = (name: string, include: string[], { postgres = false, compiled = true } = {}): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, globalSetup: [...(compiled ? [FRESH_DIST] : []), ...(postgres ? [POSTGRES] : [])] },
});

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources; what runs compiled is checked fresh (FRESH_DIST).
    alias: {
      '@adec/abi': src('./packages/abi/src/index.ts'),
      '@adec/contracts': src('./packages/contracts/src/index.ts'),
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
    // Every trace the engine makes under test is checked against its contract (@adec/contracts):
    // one that breaks it throws, in the test process and in the processes tests start.
    env: { ADEC_CHECK_CONTRACTS: '1' },
    projects: [
      project('abi', ['packages/abi/test/**/*.test.ts'], { compiled: false }),
      project('contracts', ['packages/contracts/test/**/*.test.ts'], { compiled: false }),
      project('diagnostics', ['packages/diagnostics/test/**/*.test.ts', 'test/diagnostics/**/*.test.ts'], { compiled: false }),
      project('grammar', ['grammar/test/**/*.test.ts'], { compiled: false }),
      project('compiler', ['packages/compiler/test/**/*.test.ts', 'test/build/**/*.test.ts', 'test/format/**/*.test.ts']),
      project('runtime', ['packages/runtime/test/**/*.test.ts']),
      project('audit', ['packages/audit/test/**/*.test.ts'], { postgres: true }),
      project('engine', ['packages/engine/test/**/*.test.ts']),
      project('server', ['packages/server/test/**/*.test.ts'], { postgres: true }),
      project('cli', ['packages/cli/test/**/*.test.ts']),
      project('language-server', ['packages/language-server/test/**/*.test.ts']),
      project('security', ['test/security/**/*.test.ts']),
      project('property', ['test/property/**/*.test.ts']),
      project('conformance', ['test/conformance/**/*.test.ts']),
      project('docs', ['test/docs/**/*.test.ts', 'test/package/**/*.test.ts', 'test/bench/**/*.test.ts']),
    ],
  },
});
