// Deleting a monitor, confirmed in a modal dialog naming it: its events, samples and uptime go with it, and
// the overview is shown afterwards.
import { api, ok } from "../api/client.ts";
import { DeleteDialog } from "../components/delete-dialog.tsx";
import { navigate } from "../router.tsx";

export function DeleteMonitorDialog({ monitor, onClose }: { monitor: { id: number; name: string }; onClose: () => void }) {
  const remove = async () => {
    await ok(api.DELETE("/api/v1/monitors/{monitor_id}", { params: { path: { monitor_id: String(monitor.id) } } }));
    navigate("/");
  };
  return (
    <DeleteDialog name={monitor.name} button="Delete monitor" remove={remove} onClose={onClose}>
      The monitor {monitor.name} stops being checked, and its events, history and uptime are deleted with it. This cannot be undone.
    </DeleteDialog>
  );
}
