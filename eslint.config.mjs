// @ts-check
/**
 * ESLint (flat config): typescript-eslint's type-checked recommended rules over all TypeScript of the repo,
 * types resolved through tsconfig.json by the project service. Layout is Prettier's: eslint-config-prettier
 * (last) turns off every rule that would fight it.
 */
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** The `any`-tracking rules: off only where the files say why below. */
const unsafeAny = {
  '@typescript-eslint/no-explicit-any': 'off',
  '@typescript-eslint/no-unsafe-argument': 'off',
  '@typescript-eslint/no-unsafe-assignment': 'off',
  '@typescript-eslint/no-unsafe-call': 'off',
  '@typescript-eslint/no-unsafe-member-access': 'off',
  '@typescript-eslint/no-unsafe-return': 'off',
};

export default defineConfig(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', 'packages/api-client/src/schema.ts'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
      // A leading underscore marks a binding kept on purpose: an Express error handler's 4th parameter, a field
      // destructured away to leave the rest.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Off: an `async` function without `await` is how this code says "returns a promise, and a throw becomes a
      // rejection" (fakes of Promise-returning interfaces, handlers that BullMQ or Express await).
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests and benchmarks read JSON response bodies and parsed YAML as `any` and assert on their shape; typed
    // HTTP helper responses (request() of @crew/test-support) are what will let these rules on there.
    files: ['**/test/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'packages/test-support/src/**/*.ts'],
    rules: unsafeAny,
  },
  {
    // Kysely's migration guide: a migration sees the database as `Kysely<any>`, never the app's current types.
    files: ['packages/db/src/migrations/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The few CommonJS config files (jest configs, a `--require` hook) run as plain Node scripts.
    files: ['**/*.{js,cjs}'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', process: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // JavaScript files are outside tsconfig.json: no type information for them.
  { files: ['**/*.{js,cjs,mjs}'], ...tseslint.configs.disableTypeChecked },
  prettier,
);
