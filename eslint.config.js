// @ts-check
'use strict';
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

/** `../core/<anything>`: a module of the kernel other than its SDK (`../core`). */
const SERVER_SDK_ONLY = {
  regex: '^(\\.\\./)+core/',
  message: 'Plugins import the kernel only through its SDK, core/index.ts (browser code: core/assets/client).',
};
/** Browser code: only `core/assets/client` itself. */
const CLIENT_SDK_ONLY = {
  regex: '^(\\.\\./)+core(?!/assets/client$)(/.*)?$',
  message: 'Browser code of plugins imports the kernel only through core/assets/client (its index.ts).',
};
/** Tests may also use the kernel's test helpers (`core/**\/test/`). */
const SERVER_SDK_OR_TEST_HELPERS = {
  regex: '^(\\.\\./)+core/(?!(.+/)?test/)',
  message: 'Plugin tests import the kernel through core/index.ts, or test helpers (test/helpers, core/**/test).',
};
const NO_TEST_HELPERS = {
  regex: '(^|/)test/',
  message: 'Product code does not import test helpers.',
};

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-output/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', __filename: 'readonly', console: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // The plugin SDK: plugin code reaches the kernel only through core/index.ts (server) and
  // core/assets/client/index.ts (browser); tests may also use the test helpers.
  {
    files: ['plugins/**/*.ts', 'examples/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_SDK_ONLY, NO_TEST_HELPERS] }] },
  },
  {
    files: ['plugins/*/client/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT_SDK_ONLY, NO_TEST_HELPERS] }] },
  },
  {
    files: ['plugins/**/test/**/*.ts', 'plugins/**/*.test.ts', 'examples/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_SDK_OR_TEST_HELPERS] }] },
  },
  {
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
