import type { ReactNode } from 'react';

/** A section's heading (its id labels the section) and one line on what it is for. */
export function SectionHeader({ id, title, children }: { id: string; title: string; children?: ReactNode }) {
  return (
    <header className="settings-section-header">
      <h2 id={id} tabIndex={-1}>
        {title}
      </h2>
      {children ? <p className="muted">{children}</p> : null}
    </header>
  );
}
