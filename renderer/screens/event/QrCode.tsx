/**
 * A QR code drawn as SVG, offline: one path of the dark modules (./qr-matrix.ts) on white,
 * with the quiet zone around it that scanners need.
 */
import { useMemo } from 'react';
import { qrPath } from './qr-matrix.ts';

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
