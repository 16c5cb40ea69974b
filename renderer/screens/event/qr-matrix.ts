/**
 * A QR code's matrix as an SVG path, offline: qrcode-generator computes it (no network, no
 * canvas); each dark module is a unit square, after the quiet zone of four modules.
 */
import qrcode from 'qrcode-generator';

/** Modules of white around the code (the standard's quiet zone). */
const QUIET = 4;

/** The SVG path of the dark modules of `text`'s QR code, and the code's size in modules. */
export function qrPath(text: string): { size: number; d: string } {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  let d = '';
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${c + QUIET} ${r + QUIET}h1v1h-1z`;
  return { size: n + 2 * QUIET, d };
}
