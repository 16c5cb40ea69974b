/**
 * Where each saved gift shows its sync state (not yet sent / sent / needs attention).
 *
 * TODO(app-admin): wire this to the sync engine's routes under /api/v1/sync once they are
 * on main (per-record push state). Until then nothing is shown, because the renderer cannot
 * read the state truthfully — no state is faked here. Sent gifts must then render read-only
 * with the reason, and unsent ones offer correct/void once the donation update lands.
 */
export function SyncStateSlot(_props: { donationId: string }) {
  return null;
}
