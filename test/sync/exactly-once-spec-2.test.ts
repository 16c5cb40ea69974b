/**
 * Part 2 of 2 of the randomized exactly-once suite (exactly-once.ts) against an HQ with the donor
 * API alone (`serve --spec-only`: no create-once by reference): the odd seeds.
 */
import { exactlyOnceSuite } from './exactly-once.ts';

exactlyOnceSuite(1, 2, 'spec-only');
