import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

// the boundaries of docs/style.md: shared is pure; web and server never import each other
const serverImports = { regex: '^#server/|(^|/)server/', message: 'Only the server imports server code.' };
const webImports = { regex: '^#web/|(^|/)web/', message: 'Only the web app imports web code.' };
const nodeImports = { regex: '^(node:|fs$|path$|crypto$|os$)', message: 'shared/ and web/ run in the browser too.' };
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'build/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'src/server/db/migrations/**',
      'data/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/shared/**'], rules: restrict(serverImports, webImports, nodeImports) },
  { files: ['src/shared/**/*.test.ts'], rules: restrict(serverImports, webImports) },
  { files: ['src/web/**'], rules: restrict(serverImports, nodeImports) },
  { files: ['src/web/**/*.test.ts', 'src/web/**/*.test.tsx'], rules: restrict(serverImports) },
  { files: ['src/server/**'], rules: restrict(webImports) },
  {
    // the error table (shared/error-messages.ts) is the only way to an error status
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/**/*.test.ts', 'src/server/**/*.testing.ts', 'src/server/plugins/error-handler.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^(status|code)$/][arguments.0.type='Literal'][arguments.0.value>=400]",
          message:
            'Throw AppError(code): the error table sets the status (withErrorStatus for a page or a larger body).',
        },
        {
          selector:
            "CallExpression[callee.object.name='reply'][callee.property.name=/^(status|code)$/][arguments.0.type!='Literal']",
          message: 'A computed status bypasses the error table: throw AppError(code), or use withErrorStatus.',
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.tsx', 'src/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
