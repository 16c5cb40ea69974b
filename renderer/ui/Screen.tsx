import type { ReactNode } from 'react';

/**
 * A screen's frame: its heading (id "screen-title", focused when the user navigates here
 * unless an element marked data-autofocus takes the focus) and its actions.
 */
export function Screen({
  title,
  actions,
  children,
  className,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={['screen', className].filter(Boolean).join(' ')} aria-labelledby="screen-title">
      <header className="screen-header">
        <h1 id="screen-title" className="screen-title" tabIndex={-1}>
          {title}
        </h1>
        {actions ? <div className="screen-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}
