/**
 * Letters, receipts and year-end statements: the folder's surface. Settings and wording per
 * account (settings.ts, defaults.ts), which gifts a run covers (select.ts), the merge of a
 * template with a donor's gifts (merge.ts), the PDF rendered on a worker thread (render/),
 * and print runs with their progress, PDF, preview and "mark as sent" (runs.ts).
 */
export { MERGE_FIELDS, type TemplateText, defaultTemplate } from './defaults.ts';
export {
  fieldValues,
  fillFields,
  giftsTable,
  letterDate,
  mergeLetter,
  paymentLabel,
  tableDate,
} from './merge.ts';
export { type LetterBlock, type LetterPage, letterPageText } from './render/pages.ts';
export { renderBarePdf, renderLettersToBuffer, renderLettersToFile } from './render/pdf.ts';
export {
  type RenderPdfOptions,
  letterRendererStats,
  renderPdf,
  renderPdfBytes,
  rendererLimits,
  rendererHeapMiB,
} from './render/thread.ts';
export { previewFirstLetter } from './preview.ts';
export { letterRunLimits } from './run-queue.ts';
export {
  failInterruptedRuns,
  getLetterRun,
  letterRunPdfPath,
  listLetterRuns,
  markRunSent,
  runFileName,
  runPartFileName,
  runPerDonorDir,
  startLetterRun,
  startLetterRunOnce,
  waitForRun,
} from './runs.ts';
export {
  type LetterDocument,
  type LetterDonor,
  type LetterGift,
  type LetterSet,
  selectLetters,
} from './select.ts';
export {
  loadLetterSettings,
  politicalSigns,
  requireFitWording,
  saveLetterSettings,
  templateOf,
} from './settings.ts';
