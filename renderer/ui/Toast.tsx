/**
 * Toasts: short notices in a polite live region, with an Undo button where undoing is
 * cheap. A toast with an action stays while it has the focus or the pointer.
 * useToast().show({ message, undo }) from anywhere under <ToastProvider>.
 */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button } from './Button.tsx';

export interface ToastInput {
  message: ReactNode;
  tone?: 'info' | 'success' | 'error';
  /** Shows an "Undo" button; the toast closes when it is pressed. */
  undo?: () => void | Promise<void>;
  undoLabel?: string;
  /** ms before it goes; default 6 s, 10 s with an undo. */
  duration?: number;
}

interface Toast extends ToastInput {
  id: number;
}

interface ToastApi {
  show(t: ToastInput): number;
  dismiss(id: number): void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((ts) => ts.filter((t) => t.id !== id));
  }, []);

  const arm = useCallback(
    (t: Toast) => {
      clearTimeout(timers.current.get(t.id));
      timers.current.set(
        t.id,
        setTimeout(() => dismiss(t.id), t.duration ?? (t.undo ? 10_000 : 6_000)),
      );
    },
    [dismiss],
  );

  const show = useCallback(
    (input: ToastInput) => {
      const t: Toast = { ...input, id: nextId.current++ };
      setToasts((ts) => [...ts.slice(-1), t]); // at most two: the newest matter
      arm(t);
      return t.id;
    },
    [arm],
  );

  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div
            key={t.id}
            className={`toast toast-${t.tone ?? 'info'}`}
            onMouseEnter={() => clearTimeout(timers.current.get(t.id))}
            onMouseLeave={() => arm(t)}
            onFocus={() => clearTimeout(timers.current.get(t.id))}
            onBlur={() => arm(t)}
          >
            <span className="toast-message">{t.message}</span>
            {t.undo ? (
              <Button
                tone="quiet"
                onClick={async () => {
                  dismiss(t.id);
                  await t.undo?.();
                }}
              >
                {t.undoLabel ?? 'Undo'}
              </Button>
            ) : null}
            <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const t = useContext(ToastContext);
  if (!t) throw new Error('useToast() outside <ToastProvider>');
  return t;
}
