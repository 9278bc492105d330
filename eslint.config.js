import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Layers below the server must stay independent of it (DESIGN.md, "Dependency direction"). */
const lowerLayerBoundary = {
  patterns: [
    {
      group: ['**/server/**', '**/db/**', '**/web/**', '**/jobs/**'],
      message: 'scanner/ and reports/ import nothing from server/, db/, jobs/ or web/.',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'bench/results/', 'coverage/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/scanner/**/*.ts', 'src/reports/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', lowerLayerBoundary] },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '!./*'],
              message: 'contract/ holds only zod schemas and types; it imports nothing of ours.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { module: 'writable', require: 'readonly' } },
  },
);
