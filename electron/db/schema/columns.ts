/**
 * Column types the tables share (the tables are in this folder, assembled in ../schema.ts).
 */

/** A boolean, stored as a 0/1 integer so both engines store it alike. */
export type Flag01 = 0 | 1;
