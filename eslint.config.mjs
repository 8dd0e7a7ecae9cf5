// One flat config for the whole workspace; projects run `eslint src` and ESLint finds this file upwards.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.nx/**', '**/var/**', '**/test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // One router and one Redux Toolkit for the shell and every remote: they come from web-kit
    // (libs/web-kit/src/router.ts, state.ts), where federation ships only what is used. Types may come
    // from the packages themselves (they are erased).
    files: ['shell/**', 'mf-*/**', 'e2e/test-remote/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-router',
              message: "Import routing from '@portal/web-kit' (the one shared router).",
            },
            ...[
              '@reduxjs/toolkit',
              '@reduxjs/toolkit/query',
              '@reduxjs/toolkit/query/react',
              'react-redux',
            ].map((name) => ({
              name,
              allowTypeImports: true,
              message: "Import Redux Toolkit from '@portal/web-kit' (its state.ts: the one shared copy).",
            })),
          ],
        },
      ],
    },
  },
  {
    // A remote's features do not import each other: what two features share lives outside features/ (the
    // remote's src/components/, src/hooks/, …) or in a library. Every folder under mf-*/src/features/ is one
    // element; imports inside one feature are its own (boundaries leaves internal dependencies alone), an
    // import of another feature of the same or another remote is an error. (eslint-plugin-boundaries:
    // written for exactly this, flat config, no install script; import/no-restricted-paths would need one
    // zone per feature.) scripts/lib/featureBoundaries.test.mjs proves the rule fires.
    files: ['mf-*/src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': [
        { type: 'feature', pattern: 'mf-*/src/features/*', capture: ['remote', 'feature'] },
      ],
      // Paths are matched from the workspace root whichever project's folder ESLint runs in.
      'boundaries/root-path': import.meta.dirname,
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          message: 'A feature does not import another feature: move what they share out of features/.',
          policies: [
            { from: { element: { type: 'feature' } }, disallow: { to: { element: { type: 'feature' } } } },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['**/scripts/**', '**/bench/**', '**/*.mjs', '**/*.cjs'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
);
