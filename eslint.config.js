import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'web/dist-server/**', 'data/**', 'shared/drizzle/**', 'coverage/**', '.cache/**'] },
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
    ignores: ['web/src/lib/schemas.ts'],
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
          patterns: [
            {
              // What runs in the browser imports only shared's contracts (schemas, errors, format,
              // constants, images, library, site-copy); the rest is server code with secrets and clients.
              regex:
                '^@app/shared/(config|db|queue|password|storage|logger|stripe|signing|sales|redis|cache-version|uploaded-images|metrics|buyer-library)(/|$)',
              message: 'The web imports only browser-safe contracts from @app/shared; this is server code.',
            },
            {
              regex: '(^|/)(api|worker)/src/',
              message: 'The web does not import api or worker code.',
            },
          ],
        },
      ],
    },
  },
);
