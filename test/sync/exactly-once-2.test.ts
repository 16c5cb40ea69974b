/** Part 2 of 2 of the randomized exactly-once suite (exactly-once.ts): the odd seeds. */
import { exactlyOnceSuite } from './exactly-once.ts';

exactlyOnceSuite(1, 2);
