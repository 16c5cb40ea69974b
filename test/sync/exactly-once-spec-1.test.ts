/**
 * Part 1 of 2 of the randomized exactly-once suite (exactly-once.ts) against an HQ with the donor
 * API alone (`serve --spec-only`: no create-once by reference): the even seeds.
 */
import { exactlyOnceSuite } from './exactly-once.ts';

exactlyOnceSuite(0, 2, 'spec-only');
