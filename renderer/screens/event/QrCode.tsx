/**
 * A QR code drawn as SVG, offline: the matrix comes from qrcode-generator (no network, no
 * canvas), one path of dark squares with the quiet zone around it that scanners need.
 */
import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

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

export function QrCode({ text, label, size = 240 }: { text: string; label: string; size?: number }) {
  const { size: modules, d } = useMemo(() => qrPath(text), [text]);
  return (
    <svg
      className="event-qr"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
      data-testid="event-qr"
      data-text={text}
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
