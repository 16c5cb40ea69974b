import type { NamedMigration } from '../migration-types.ts';
import * as initial from './2026-11-22T0900-initial.ts';

/** Every migration, oldest first. A new one is dated after the newest (a test checks). */
export const MIGRATIONS: readonly NamedMigration[] = [initial];
