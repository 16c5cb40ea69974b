/**
 * A lost hub replaced, with HQ implementing the donor API alone (`serve --spec-only`: a
 * re-posted gift is a second gift): every gift still once at HQ (replace-scenario.ts).
 */
import { replaceScenario } from './replace-scenario.ts';

replaceScenario('spec-only');
