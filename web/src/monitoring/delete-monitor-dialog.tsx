// Deleting a monitor, confirmed in a modal dialog naming it: its events, samples and uptime go with it, and
// the overview is shown afterwards.
import { api, ok } from "../api/client.ts";
import { DeleteDialog } from "../components/delete-dialog.tsx";
import { useT } from "../i18n/use-t.ts";
import { navigate } from "../router.tsx";

export function DeleteMonitorDialog({ monitor, onClose }: { monitor: { id: number; name: string }; onClose: () => void }) {
  const t = useT();
  const remove = async () => {
    await ok(api.DELETE("/api/v1/monitors/{monitor_id}", { params: { path: { monitor_id: String(monitor.id) } } }));
    navigate("/");
  };
  return (
    <DeleteDialog name={monitor.name} button={t("monitoring:delete.button")} remove={remove} onClose={onClose}>
      {t("monitoring:delete.text", { name: monitor.name })}
    </DeleteDialog>
  );
}
