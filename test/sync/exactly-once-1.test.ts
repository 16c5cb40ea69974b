/** Part 1 of 2 of the randomized exactly-once suite (exactly-once.ts): the even seeds. */
import { exactlyOnceSuite } from './exactly-once.ts';

exactlyOnceSuite(0, 2);
