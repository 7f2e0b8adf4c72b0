import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readFileSync } from 'node:fs';

// Who may import what from @app/shared is decided by folder: each subpath of shared/package.json's
// "exports" maps into shared/src/contracts/ (browser-safe: zod and plain functions, for api, worker and
// web) or shared/src/server/ (config, clients, secrets: api, worker and scripts only).
const sharedExports = Object.entries(
  JSON.parse(readFileSync(new URL('./shared/package.json', import.meta.url), 'utf8')).exports,
);
const unplaced = sharedExports.filter(([, file]) => !/^\.\/src\/(contracts|server)\//.test(file));
if (unplaced.length > 0) {
  throw new Error(`@app/shared exports outside src/contracts/ and src/server/: ${unplaced.map(([s]) => s)}`);
}
const contractSubpaths = sharedExports
  .filter(([, file]) => file.startsWith('./src/contracts/'))
  .map(([subpath]) => subpath.slice('./'.length).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
/** An @app/shared subpath that does not map into shared/src/contracts/. */
const notAContract = `^@app/shared(?!/(${contractSubpaths.join('|')})$)`;
const notAContractMessage =
  'The web imports only @app/shared subpaths that map into shared/src/contracts/ (shared/package.json "exports"); the rest is server code with secrets and clients.';
const lazyImportOutsideContracts = {
  selector: `ImportExpression[source.value=/${notAContract.replaceAll('/', '\\/')}/]`,
  message: notAContractMessage,
};
const webImportPatterns = [
  { regex: notAContract, message: notAContractMessage },
  {
    regex: '(^|/)shared/src/',
    message: 'The web imports shared through its @app/shared subpaths, never by path.',
  },
  {
    regex: '(^|/)(api|worker)/src/',
    message: 'The web does not import api or worker code.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'web/dist-server/**',
      'data/**',
      'shared/drizzle/**',
      'coverage/**',
      '.cache/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Configuration is parsed once, in shared/src/server/config.ts.
    files: ['api/**', 'worker/**', 'shared/**', 'web/**'],
    // Tests may hand the environment on to the processes they start.
    ignores: ['shared/src/server/config.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through @app/shared/config.' },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Worker tests drive handlers and queues; a test that starts from an api route is a flow (test/flows/).
    files: ['worker/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)api/src/|test/support/app\\.ts$',
              message: 'Worker tests do not load api code; put a test that crosses both in test/flows/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@app/shared/schemas',
              message: 'Import schemas through web/src/lib/schemas.ts (it sets zod up for our CSP first).',
              allowTypeImports: true,
            },
          ],
          patterns: webImportPatterns,
        },
      ],
      // A lazy import() is held to the same folders.
      'no-restricted-syntax': ['error', lazyImportOutsideContracts],
    },
  },
  {
    // What a person reads: an ApiError's own message is "{status}: {the raw body}" (web/src/lib/api.ts).
    files: ['web/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        lazyImportOutsideContracts,
        ...[
          "MemberExpression[property.name='message'][object.name=/^(error|err|e|reason|failure|cause)$/]",
          "MemberExpression[property.name='message'][object.property.name='error']",
        ].map((selector) => ({
          selector,
          message: "Show errorMessage(error, fallback): an ApiError's message is its status and raw body.",
        })),
      ],
    },
  },
  {
    // The one door to the schemas (it sets zod up first) keeps the rest of the rule.
    files: ['web/src/lib/schemas.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: webImportPatterns }] },
  },
  {
    // Contracts run in the browser too: zod and each other, nothing from the server folder.
    files: ['shared/src/contracts/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!\\.|zod$)', message: 'Contracts import only zod and other contracts.' },
            { regex: '(^|/)server/', message: 'Contracts do not import shared/src/server/.' },
          ],
        },
      ],
    },
  },
);
