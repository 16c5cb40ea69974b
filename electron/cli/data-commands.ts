import type { Command } from 'commander';

/** import, export and demo: registered by their own module. */
export function registerDataCommands(_program: Command): void {}
