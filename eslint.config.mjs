import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@maou/*/src/*', '@maou/*/dist/*', '**/packages/*/src/*'],
              message: 'Import a package through its public entry.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/domain/src/**/*.ts', 'packages/engine/src/**/*.ts', 'packages/app/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    // Only the cli package wires adapters: the container is off limits everywhere else.
    files: [
      'packages/engine/src/**/*.ts',
      'packages/app/src/**/*.ts',
      'packages/interface/src/**/*.ts',
      'packages/host/src/**/*.ts',
      'packages/infra/src/**/*.ts',
      'packages/compute/src/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@maou/*/src/*', '@maou/*/dist/*', '**/packages/*/src/*'],
              message: 'Import a package through its public entry.',
            },
          ],
          paths: [
            {
              name: 'tsyringe',
              importNames: ['container'],
              message: 'Only packages/cli wires adapters (the composition root).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@maou/*', 'tsyringe', 'pino', 'fs', 'node:*', 'process'],
              message: 'The domain is pure: no I/O, no frameworks.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Take time through a parameter.' },
        { object: 'Math', property: 'random', message: 'Take randomness through a parameter.' },
      ],
      'no-restricted-globals': ['error', 'process'],
    },
  },
);
