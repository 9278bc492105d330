import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';

/** Layers below the server must stay independent of it (DESIGN.md, "Dependency direction"). */
const lowerLayerBoundary = {
  patterns: [
    {
      group: [
        '**/server/**',
        '**/db/**',
        '**/web/**',
        '**/jobs/**',
        '#server/*',
        '#db/*',
        '#web/*',
        '#jobs/*',
      ],
      message: 'scanner/ and reports/ import nothing from server/, db/, jobs/ or web/.',
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/',
      'node_modules/',
      'data/',
      'bench/results/',
      'coverage/',
      'test/fixtures/',
    ],
  },
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
              group: ['../*', '!./*', '#*'],
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
      'no-restricted-imports': ['error', { patterns: [webOutsideBoundary()] }],
    },
  },
  ...webZones(),
  ...serverZones(),
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { module: 'writable', require: 'readonly' } },
  },
);

/** web/ reaches the rest of the code base only through contract/ (and the server over HTTP). */
function webOutsideBoundary() {
  return {
    group: [
      '**/server/**',
      '**/db/**',
      '**/jobs/**',
      '**/scanner/**',
      '**/reports/**',
      '#*',
      '!#contract/*',
    ],
    message: 'web/ imports only contract/ from the rest of the code base.',
  };
}

/**
 * The web app's zones, after bulletproof-react (docs/decisions/0002-web-app.md, "Zones"):
 * app/ composes features; a feature imports shared code (api/, components/, lib/) but never
 * another feature; shared code imports neither app/ nor a feature. Imports are relative, so a
 * path that climbs exactly to features/ and goes down into a name leaves the importing feature.
 * Each block repeats the outside boundary because a later block replaces the rule's options.
 */
function webZones() {
  const noApp = {
    regex: '^(\\.\\./)+app(/|$)',
    message: 'Only app/ composes the app; pass what is needed as props or move it to lib/.',
  };
  const intoFeature = (depth) => ({
    regex: `^${'\\.\\./'.repeat(depth)}[^./]`,
    message:
      'Features do not import each other: move what both need to web/api, web/lib or web/components, or compose them in app/.',
  });
  const sharedRule = {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          webOutsideBoundary(),
          noApp,
          {
            regex: '^(\\.\\./)+features(/|$)',
            message: 'Shared web code (api/, components/, lib/) imports no feature.',
          },
        ],
      },
    ],
  };
  const featureFiles = (depth) => `src/web/features/${'*/'.repeat(depth)}*.{ts,tsx}`;
  return [
    { files: ['src/web/{api,components,lib}/**/*.{ts,tsx}'], rules: sharedRule },
    ...[1, 2, 3].map((depth) => ({
      files: [featureFiles(depth)],
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [webOutsideBoundary(), noApp, intoFeature(depth)] },
        ],
      },
    })),
    {
      // Server addresses live in the api/ modules that call them, never in markup.
      files: ['src/web/**/components/**/*.tsx'],
      rules: {
        'no-restricted-syntax': [
          'error',
          {
            selector: 'Literal[value=/^\\/api\\//]',
            message: 'No /api/ addresses in components: call or link through an api/ module.',
          },
          {
            selector: 'TemplateElement[value.raw=/^\\/api\\//]',
            message: 'No /api/ addresses in components: call or link through an api/ module.',
          },
        ],
      },
    },
  ];
}

/**
 * The arrows of docs/architecture.md between the areas of src/ (import-x resolves the `#...`
 * aliases of package.json and relative paths alike):
 * - everyone outside the scanner uses it through its one door, scanner/index.ts;
 * - the tables of scans, audits and domains are reached only through db/stores/, and the server's
 *   areas reach the schema only from their own repo.ts (area-only tables; auth/sessions.ts is the
 *   sessions table's); jobs/ holds handlers;
 * - a server area never imports another area's repo.ts (it calls that area's service);
 * - nothing below the server imports it, and no file imports itself round a cycle.
 */
function serverZones() {
  const areas = [
    'auth',
    'billing',
    'complaints',
    'public',
    'scans',
    'audits',
    'documents',
    'domains',
    'users',
    'artifacts',
    'addons',
    'alerts',
  ];
  const zones = [
    {
      target: './src/!(scanner)/**/*',
      from: './src/scanner',
      // launch.ts: Chromium's launch alone, started before the rest of the scanner loads.
      except: ['./index.ts', './launch.ts'],
      message: 'Use the scanner through its one door: #scanner (src/scanner/index.ts).',
    },
    {
      target: [
        './src/server/**/!(repo|sessions|*.test).ts',
        './src/jobs/**/!(*.test).ts',
        './src/cli/**/*',
        './src/reports/**/*',
      ],
      from: './src/db/schema',
      message: 'Tables are queried by db/stores/ (or an area-only repo.ts), never from here.',
    },
    {
      target: [
        './src/db/**/*',
        './src/jobs/**/*',
        './src/reports/**/*',
        './src/scanner/**/*',
        './src/cli/**/*',
        './src/contract/**/*',
      ],
      from: './src/server',
      message: 'Nothing below the server imports it.',
    },
    {
      // A domain's plan builds on the domain (billing/domain-plans), never the other way round:
      // what the plan must do when a domain changes is handed to the domains area as a hook.
      target: './src/server/domains/**/!(*.test).ts',
      from: './src/server/billing',
      message: 'The domains area does not import billing; billing/domain-plans builds on domains.',
    },
    ...areas.map((area) => ({
      target: `./src/server/${area}/**/*`,
      from: `./src/server/!(${area})/repo.ts`,
      message: "Call the other area's service, never its repo.",
    })),
  ];
  return [
    {
      files: ['src/**/*.ts'],
      ignores: ['src/web/**'],
      plugins: { 'import-x': importX },
      settings: {
        'import-x/resolver-next': [
          createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } }),
        ],
      },
      rules: {
        'import-x/no-restricted-paths': ['error', { zones }],
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
      },
    },
  ];
}
