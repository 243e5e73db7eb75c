// @ts-check
/**
 * Lint: typescript-eslint's strict, type-aware rules over every package's sources and the tests
 * (`npm run lint`, part of `npm test`). Each rule turned off or tuned here says why; everything
 * else is the preset as published.
 */
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Generated code (checked for staleness by its own tests), compiled output (`npm start`'s
  // .adec-demo/ too), and the plain JavaScript of the bench and scripts, which TypeScript does
  // not check either.
  { ignores: ['**/dist/**', '**/node_modules/**', '.adec-demo/**', '**/*.generated.ts', '**/*.mjs', '**/*.js', 'bench/**', 'scripts/**', 'examples/**', 'packages/language-server/editors/**'] },
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      // The packages' projects for their sources, the tests' project for every test folder.
      parserOptions: { project: ['./packages/*/tsconfig.json', './grammar/tsconfig.json', './test/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `noUncheckedIndexedAccess` is on: an index known to be in range is asserted with `!`,
      // the one widening the compiler still checks the rest of the expression around.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Numbers and booleans read well in messages; `undefined` and objects in a message are
      // still mistakes.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `(x) => void f(x)` and `() => resolve()` callbacks say what they mean.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true, ignoreVoidOperator: true }],
      // A synchronous implementation of an asynchronous interface (the SQLite store, in-memory
      // test doubles) is `async` so a throw becomes a rejection, as callers handle it.
      '@typescript-eslint/require-await': 'off',
      // `const { dropped: _, ...rest } = value` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // vitest types its asymmetric matchers (`expect.any`, `expect.stringMatching`, …) as `any`,
    // and a test's expected object is built from them; JSON read in tests is typed all the same.
    files: ['test/**', 'packages/*/test/**', 'grammar/test/**'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
);
