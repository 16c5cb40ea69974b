// Lint: typescript-eslint's recommended rules, plus the project's layering (docs/design.md,
// "Architecture"): a file's folder tells what it may import.
import tseslint from 'typescript-eslint';
import house from './eslint/own-lines.js';

const layer = (files, patterns, why) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: patterns.map((group) => ({ group: [group], message: `Bad layering: ${why}` })) },
    ],
  },
});

const ONLY_MAIN_IMPORTS_ELECTRON = {
  group: ['electron'],
  message: 'Bad layering: only electron/main.ts and preload.ts import Electron.',
};

// The server, the CLI, the shell and main.ts use sync, the event hub, letters and the domain
// through their stated surfaces only: electron/sync/index.ts, electron/hub/index.ts,
// electron/letters/index.ts,
// electron/domain/index.ts and each domain folder's index.ts (docs/development.md, "The map").
const surfaces = (files, extra = []) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...extra,
          {
            group: ['**/sync/**/*.ts', '!**/sync/index.ts'],
            message: 'Bad layering: import sync through its surface, electron/sync/index.ts.',
          },
          {
            group: ['**/hub/**/*.ts', '!**/hub/index.ts'],
            message: 'Bad layering: import the event hub through its surface, electron/hub/index.ts.',
          },
          {
            group: ['**/letters/**/*.ts', '!**/letters/index.ts'],
            message: 'Bad layering: import letters through its surface, electron/letters/index.ts.',
          },
          {
            group: ['**/domain/**/*.ts', '!**/domain/index.ts', '!**/domain/*/index.ts'],
            message:
              "Bad layering: import the domain through its surfaces, electron/domain/index.ts or a domain folder's index.ts.",
          },
        ],
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'bench/.work/', 'test-results/', 'test-artifacts/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  layer(
    ['shared/**'],
    [
      'node:*',
      '**/electron/**',
      '**/renderer/**',
      'electron',
      'fastify',
      'better-sqlite3',
      'kysely',
      'react',
      'react-dom',
    ],
    'shared/ imports nothing of Node, the DOM, Electron or the storage engines.',
  ),
  layer(
    ['renderer/**'],
    ['node:*', '**/electron/**', 'electron', 'better-sqlite3', 'kysely', 'fastify'],
    'renderer/ talks to the server over HTTP only; it may import shared/.',
  ),
  layer(
    ['electron/domain/**'],
    ['**/server/**', '**/sync/**', '**/hub/**', '**/cli/**', 'electron', 'fastify', 'better-sqlite3', 'pg'],
    'domain/ knows nothing of HTTP, sync, the event hub, the CLI, Electron or an engine.',
  ),
  layer(
    ['electron/db/**'],
    ['**/domain/**', '**/server/**', '**/sync/**', '**/cli/**', 'electron', 'fastify'],
    'db/ is the bottom layer.',
  ),
  {
    // Sizes a reader can hold: a file of at most 400 lines, a function of at most 120 lines of
    // its own (the functions inside it measured on their own). Tests and migrations aside.
    files: ['**/*.{ts,tsx,mts,mjs,js}'],
    ignores: ['test/**', 'electron/db/migrations/**'],
    plugins: { house },
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'house/max-own-lines': ['error', { max: 120 }],
    },
  },
  // Sync: nothing of Electron; the event hub's declarations (the ledger's kinds) through its surface only.
  {
    files: ['electron/sync/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['electron'],
              message: 'Bad layering: only electron/main.ts and preload.ts import Electron.',
            },
            {
              group: ['**/hub/**/*.ts', '!**/hub/index.ts'],
              message: 'Bad layering: import the event hub through its surface, electron/hub/index.ts.',
            },
          ],
        },
      ],
    },
  },
  surfaces(['electron/server/**', 'electron/cli/**'], [ONLY_MAIN_IMPORTS_ELECTRON]),
  surfaces(['electron/shell/**', 'electron/main.ts']),
  // Letters: the domain through its surfaces, like the server.
  surfaces(['electron/letters/**']),
  // The event hub: the domain through its surfaces; nothing of HTTP, the CLI, sync or Electron.
  surfaces(
    ['electron/hub/**'],
    [
      {
        group: ['**/server/**', '**/cli/**', '**/sync/**', 'electron', 'fastify'],
        message: 'Bad layering: hub/ knows nothing of HTTP, the CLI, sync or Electron.',
      },
    ],
  ),
  {
    // The shell's logic is run in Node against a stand-in for Electron: its types only.
    files: ['electron/shell/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              allowTypeImports: true,
              message:
                "Bad layering: electron/shell/ takes Electron's calls from main.ts (ShellElectron); import its types only.",
            },
          ],
        },
      ],
    },
  },
);
