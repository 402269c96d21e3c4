import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';

// the boundaries of docs/style.md: shared is pure; web and server never import each other
const serverImports = { regex: '^#server/|(^|/)server/', message: 'Only the server imports server code.' };
const webImports = { regex: '^#web/|(^|/)web/', message: 'Only the web app imports web code.' };
const nodeImports = { regex: '^(node:|fs$|path$|crypto$|os$)', message: 'shared/ and web/ run in the browser too.' };
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

// web features: a feature's own top-level files (its *.api.ts hooks) are what others may use; its folders
// (components/, member/, admin/) are its internals. Routes compose features; components/ and lib/ import none.
const webFeatures = readdirSync('src/web/features', { withFileTypes: true }).filter((entry) => entry.isDirectory());
const internalsOf = (feature) =>
  readdirSync(`src/web/features/${feature}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `./src/web/features/${feature}/${entry.name}`);
const webZones = [
  ...webFeatures.flatMap(({ name }) =>
    webFeatures
      .filter((other) => other.name !== name)
      .flatMap((other) => internalsOf(other.name))
      .map((from) => ({
        target: `./src/web/features/${name}`,
        from,
        message: "Another feature's internals: use its *.api.ts, or compose both in a route.",
      })),
  ),
  { target: './src/web/features', from: './src/web/routes', message: 'Routes compose features, not the reverse.' },
  ...readdirSync('src/web/components', { withFileTypes: true })
    .filter((entry) => entry.name !== 'layout') // the app's frame composes features, as a route does
    .map((entry) => `./src/web/components/${entry.name}`)
    .concat('./src/web/lib')
    .map((target) => ({
      target,
      from: ['./src/web/features', './src/web/routes'],
      message: 'App-wide code imports no feature and no route.',
    })),
];

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
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: webZones }],
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
    ignores: [
      'src/server/**/*.test.ts',
      'src/server/**/*.testing.ts',
      'src/server/plugins/error-handler.ts',
      // the simulated Mercado Pago answers in Mercado Pago's statuses and error shapes, not ours
      'src/server/services/payments/simulated-mercadopago*.ts',
      'src/server/services/payments/demo-mercadopago.ts',
    ],
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
