/** A lost hub replaced, with GiftDesk as HQ (replace-scenario.ts). */
import { replaceScenario } from './replace-scenario.ts';

replaceScenario('giftdesk');
