/** A form's own error line: what no field of it shows, as an alert; nothing when all is well. */
export function FormError({ message }: { message: string | null | undefined }) {
  return message ? (
    <p className="notice notice-error" role="alert">
      {message}
    </p>
  ) : null;
}
