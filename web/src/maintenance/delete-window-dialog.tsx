// Deleting a maintenance window, confirmed in a modal dialog naming it; sent with If-Match, so a window
// changed meanwhile is not deleted unseen. The list is shown afterwards.
import { api, ok } from "../api/client.ts";
import { DeleteDialog } from "../components/delete-dialog.tsx";
import { navigate } from "../router.tsx";

export function DeleteWindowDialog({
  window: w,
  version,
  onClose,
}: {
  window: { id: number; name: string; active: boolean };
  version: number | undefined;
  onClose: () => void;
}) {
  const remove = async () => {
    await ok(
      api.DELETE("/api/v1/monitors/maintenance-windows/{window_id}", {
        params: { path: { window_id: String(w.id) } },
        headers: version !== undefined ? { "If-Match": `W/"${version}"` } : {},
      }),
    );
    navigate("/maintenance");
  };
  return (
    <DeleteDialog name={w.name} button="Delete window" remove={remove} onClose={onClose}>
      {w.active
        ? `The window ${w.name} is open now: the monitors it covers leave maintenance at their next check and alert again. This cannot be undone.`
        : `The window ${w.name} will not put its monitors in maintenance again. This cannot be undone.`}
    </DeleteDialog>
  );
}
