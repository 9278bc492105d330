import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';

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
    // The web app: accessible JSX and the rules of hooks; it talks to the server only over HTTP.
    files: ['src/web/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.strict,
    plugins: { ...jsxA11y.flatConfigs.strict.plugins, 'react-hooks': reactHooks },
    languageOptions: {
      ...jsxA11y.flatConfigs.strict.languageOptions,
      globals: { window: 'readonly', document: 'readonly', console: 'readonly', URL: 'readonly' },
    },
    rules: {
      ...jsxA11y.flatConfigs.strict.rules,
      ...reactHooks.configs.recommended.rules,
      // A scrollable region (role="region" with a name) must take focus to scroll by keyboard.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'] }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/db/**', '**/jobs/**', '**/scanner/**', '**/reports/**'],
              message: 'web/ imports only contract/ from the rest of the code base.',
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
