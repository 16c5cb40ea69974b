import { useId } from 'react';

/** A labelled progress bar; `value` null = working, amount unknown. */
export function ProgressBar({
  label,
  value,
  max = 100,
  detail,
}: {
  label: string;
  value: number | null;
  max?: number;
  detail?: string;
}) {
  const id = useId();
  const pct = value === null || max <= 0 ? null : Math.max(0, Math.min(100, (value / max) * 100));
  return (
    <div className="progress">
      <div className="progress-label" id={id}>
        <span>{label}</span>
        {detail ? (
          <span className="progress-detail">{detail}</span>
        ) : pct !== null ? (
          <span className="progress-detail">{Math.floor(pct)}%</span>
        ) : null}
      </div>
      <div
        className={['progress-track', pct === null ? 'progress-indeterminate' : ''].filter(Boolean).join(' ')}
        role="progressbar"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={value ?? undefined}
        aria-valuetext={detail}
      >
        <div className="progress-fill" style={pct === null ? undefined : { width: `${pct}%` }} />
      </div>
    </div>
  );
}
