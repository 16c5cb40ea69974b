export { Button, type ButtonProps } from './Button.tsx';
export { Checkbox, Select, TextArea, TextField, type SelectOption } from './Field.tsx';
export { ConfirmDialog, Dialog } from './Dialog.tsx';
export { EmptyState } from './EmptyState.tsx';
export { ProgressBar } from './ProgressBar.tsx';
export { ToastProvider, useToast, type ToastInput } from './Toast.tsx';
export { Screen } from './Screen.tsx';
export { useDebounced } from './useDebounced.ts';
