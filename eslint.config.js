// Type-aware lint for the whole monorepo, with Nx module boundaries (apps never import apps,
// libs never import apps, the test harness only from tests).
const tseslint = require('typescript-eslint');
const nx = require('@nx/eslint-plugin');
const prettier = require('eslint-config-prettier');

module.exports = tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', 'data/**', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    plugins: { '@nx': nx },
    languageOptions: { parserOptions: { project: ['./tsconfig.lint.json'], tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          // Libs stand on floors and import only the floors below them (and their own, for base);
          // the test harness (scope:test) is kept out of product code by the rule further down.
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'layer:base', onlyDependOnLibsWithTags: ['layer:base'] },
            { sourceTag: 'layer:data', onlyDependOnLibsWithTags: ['layer:base', 'layer:data', 'scope:test'] },
            { sourceTag: 'layer:messaging', onlyDependOnLibsWithTags: ['layer:base', 'layer:data', 'scope:test'] },
            { sourceTag: 'layer:service', onlyDependOnLibsWithTags: ['layer:base', 'layer:data', 'layer:messaging', 'scope:test'] },
          ],
        },
      ],
    },
  },
  {
    // The test harness (libs/testing) is for tests: specs, e2e, benches and an app's own testing/ folder.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts', '**/testing/**', 'libs/testing/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: '@docintel/testing', message: 'the test harness is for tests only' }] }],
    },
  },
  {
    // CLIs, tests and the harness talk to a terminal.
    files: ['**/cli/**/*.ts', '**/*.spec.ts', '**/*.int-spec.ts', 'test-e2e/**/*.ts', 'libs/testing/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // The web console runs in the browser: its own tsconfig (DOM, JSX), and .tsx files.
    files: ['apps/console/src/**/*.ts', 'apps/console/src/**/*.tsx'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { project: ['./apps/console/tsconfig.json'], tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Its unit specs run under jest in Node (tsconfig.lint.json), beside the code they test.
    files: ['apps/console/src/**/*.spec.ts'],
    languageOptions: { parserOptions: { project: ['./tsconfig.lint.json'], tsconfigRootDir: __dirname } },
  },
  prettier,
);
