// Deleting a monitor, confirmed in a modal dialog naming it: its events, samples and uptime go with it, and
// the overview is shown afterwards.
import { api, ok } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Dialog } from "../components/dialog.tsx";
import { Notice } from "../components/field.tsx";
import { navigate } from "../router.tsx";

export function DeleteMonitorDialog({ monitor, onClose }: { monitor: { id: number; name: string }; onClose: () => void }) {
  const remove = useSubmit();
  const submit = (e: Event) => {
    e.preventDefault();
    void remove.run(async () => {
      await ok(api.DELETE("/api/v1/monitors/{monitor_id}", { params: { path: { monitor_id: String(monitor.id) } } }));
      navigate("/");
    });
  };
  return (
    <Dialog title={`Delete ${monitor.name}?`} onClose={onClose}>
      <form onSubmit={submit}>
        <p>
          The monitor {monitor.name} stops being checked, and its events, history and uptime are deleted with it. This cannot be undone.
        </p>
        <Notice kind="error">{remove.error}</Notice>
        <div class="actions">
          <button type="submit" class="danger" disabled={remove.busy}>
            Delete monitor
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
