/**
 * A modal dialog on the native <dialog> element (focus is trapped and Escape closes it, by
 * the browser; on closing, the focus goes back to what opened it, or where its owner says:
 * `focusAfter`), ConfirmDialog for actions that cannot be undone cheaply, and FormDialog
 * for a form that edits something (Cancel and Save).
 */
import { useId, useLayoutEffect, useRef, type FormEventHandler, type ReactNode } from 'react';
import { Button } from './Button.tsx';
import { FormError } from './FormError.tsx';

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom. */
  actions?: ReactNode;
  wide?: boolean;
  /**
   * Where the focus goes when the dialog closes (saved, cancelled, Escape), looked up then:
   * a screen where typing goes on in one place (gift entry's donor box) says so here. When it
   * gives nothing, the focus goes back to what opened the dialog.
   */
  focusAfter?: () => HTMLElement | null;
}

/**
 * Closes the dialog and gives the focus to `after()` or else back to what had it before the
 * dialog opened (the button that opened it), when it was nowhere or inside the dialog.
 * Called from layout effects, in the commit that empties or removes the dialog, so there is no
 * frame in which the dialog looks gone and the focus is not yet placed (the first key typed
 * right after Void went nowhere: 'okaf' became 'kaf'). It closes first: nothing outside a modal
 * dialog that is still open can take the focus.
 */
function closeAndGiveFocusBack(
  dialog: HTMLDialogElement,
  opener: HTMLElement | null,
  after: (() => HTMLElement | null) | undefined,
): void {
  const active = document.activeElement;
  const lost = active === null || active === document.body || dialog.contains(active);
  if (dialog.open) dialog.close();
  if (!lost) return;
  const target = after?.() ?? opener;
  if (target?.isConnected) target.focus();
}

export function Dialog({ open, title, onClose, children, actions, wide, focusAfter }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const after = useRef(focusAfter);
  after.current = focusAfter;
  const titleId = useId();
  useLayoutEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current =
        document.activeElement instanceof HTMLElement && document.activeElement !== document.body
          ? document.activeElement
          : null;
      d.showModal();
    }
    if (!open && d.open) closeAndGiveFocusBack(d, opener.current, after.current);
  }, [open]);
  // A dialog its owner removes while open (Escape or Save unmount it) closes with it, and the
  // browser then leaves the focus on the body: it goes where focusAfter says, or back to the
  // opener, here instead.
  useLayoutEffect(() => {
    const d = ref.current;
    return () => {
      if (d) closeAndGiveFocusBack(d, opener.current, after.current);
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={['dialog', wide ? 'dialog-wide' : ''].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault(); // Escape: let the owner decide (it keeps `open` in its state)
        onClose();
      }}
    >
      {open ? (
        <>
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          <div className="dialog-body">{children}</div>
          {actions ? <div className="dialog-actions">{actions}</div> : null}
        </>
      ) : null}
    </dialog>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'danger' | 'primary';
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  focusAfter?: DialogProps['focusAfter'];
}

/** Asks before doing something expensive to undo. The safe choice (cancel) has the focus first. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'danger',
  busy,
  onConfirm,
  onCancel,
  focusAfter,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      focusAfter={focusAfter}
      actions={
        <>
          <Button autoFocus onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button tone={tone} busy={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

export interface FormDialogProps {
  title: ReactNode;
  /** The form's id: the Save button, in the dialog's actions, submits it. */
  formId: string;
  wide?: boolean;
  busy: boolean;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The form's own message (what no field shows), last in the form. */
  formError: string | null;
  children: ReactNode;
}

/**
 * A form in a dialog, open while it is rendered: Enter in the form saves, Cancel and Save at
 * the bottom (Escape cancels); its first field takes `autoFocus`.
 */
export function FormDialog({
  title,
  formId,
  wide,
  busy,
  onClose,
  onSubmit,
  formError,
  children,
}: FormDialogProps) {
  return (
    <Dialog
      open
      wide={wide}
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button tone="primary" type="submit" form={formId} busy={busy}>
            Save
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="dialog-form">
        {children}
        <FormError message={formError} />
      </form>
    </Dialog>
  );
}
