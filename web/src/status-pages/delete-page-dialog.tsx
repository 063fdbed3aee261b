// Deleting a status page, confirmed in a dialog naming it, with the version the editor loaded (If-Match):
// a page changed meanwhile is not deleted unseen. The list is shown afterwards.
import { api, ok } from "../api/client.ts";
import { DeleteDialog } from "../components/delete-dialog.tsx";
import { navigate } from "../router.tsx";
import { useT } from "../i18n/use-t.ts";

export function DeletePageDialog({
  page,
  version,
  onClose,
}: {
  page: { id: number; title: string; slug: string };
  version: number | undefined;
  onClose: () => void;
}) {
  const t = useT();
  const remove = async () => {
    await ok(
      api.DELETE("/api/v1/status-pages/{page_id}", {
        params: { path: { page_id: String(page.id) } },
        headers: version !== undefined ? { "If-Match": `W/"${version}"` } : {},
      }),
    );
    navigate("/status-pages");
  };
  return (
    <DeleteDialog name={page.title} button={t("status-pages:delete.button")} remove={remove} onClose={onClose}>
      {t("status-pages:delete.text", { slug: page.slug })}
    </DeleteDialog>
  );
}
