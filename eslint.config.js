import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Imports go one way (DESIGN.md): web -> shared and server -> shared, never across.
const noImport = (...groups) => ({
  'no-restricted-imports': ['error', { patterns: groups.map((group) => ({ group, message: 'Imports go one way: apps import packages/shared, never each other.' })) }],
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/data/**', 'e2e/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['apps/web/**'], languageOptions: { globals: { ...globals.browser } }, rules: noImport(['**/apps/server/**', '@mailwing/server', '@mailwing/server/*']) },
  { files: ['apps/server/**'], rules: noImport(['**/apps/web/**', '@mailwing/web', '@mailwing/web/*']) },
  { files: ['packages/shared/**'], rules: noImport(['**/apps/**', '@mailwing/server', '@mailwing/web', 'node:*', 'fs', 'path', 'react']) },
  { files: ['**/*.js', '**/*.mjs'], rules: { '@typescript-eslint/consistent-type-imports': 'off' } },
);
