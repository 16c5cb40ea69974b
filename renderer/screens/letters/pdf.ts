/**
 * A letters PDF in the page: fetched with the session's key (a Blob), then shown in a frame,
 * printed from a hidden frame (the system's print dialog), or saved as a file. The window's
 * CSP lets frames load the page's own blob: URLs and nothing else.
 */
import type { Api } from '../../api/endpoints.ts';
import type { LetterRun } from '#shared/schemas/letters.ts';

const PRINT_FRAME = 'letters-print-frame';

/**
 * Prints a PDF: a hidden frame loads it and, loaded, opens the print dialog. The frame stays
 * until the next print (removing it would close a print dialog still open); its old URL is
 * released then.
 */
export function printPdf(blob: Blob, title: string): void {
  const old = document.getElementById(PRINT_FRAME) as HTMLIFrameElement | null;
  if (old) {
    URL.revokeObjectURL(old.src);
    old.remove();
  }
  const frame = document.createElement('iframe');
  frame.id = PRINT_FRAME;
  frame.title = title;
  frame.className = 'print-frame';
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  frame.addEventListener('load', () => {
    try {
      frame.contentWindow?.focus();
      frame.contentWindow?.print();
    } catch {
      // A viewer that cannot print from a frame: the PDF is still downloadable from Letters.
    }
  });
  frame.src = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
  document.body.append(frame);
}

/** Waits for a run to finish rendering (asking again every `everyMs`), and gives it back. */
export async function finishedRun(api: Api, run: LetterRun, everyMs = 300): Promise<LetterRun> {
  let r = run;
  while (r.status === 'rendering') {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    r = await api.letters.run(r.id);
  }
  if (r.status === 'failed') throw new Error(r.error ?? 'The letters could not be made.');
  return r;
}

/**
 * The file name a run's PDF is saved under: "thank-you-2026-11-27-4T6SBR.pdf"; a part of a run
 * printed in several: "year-end-2026-12-31-4T6SBR-part-2-of-7.pdf".
 */
export function runFileName(run: LetterRun, part?: number): string {
  const stem = `${run.kind}-${run.createdAt.slice(0, 10)}-${run.id.slice(-6)}`;
  return part === undefined ? `${stem}.pdf` : `${stem}-part-${part}-of-${run.parts.length}.pdf`;
}
