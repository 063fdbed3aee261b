// The saved page as the public sees it, drafts included (GET /status-pages/{id}/preview), in a frame that
// is sandboxed (no script, no navigation, an origin of its own) even though the page carries none.
import { useState } from "preact/hooks";
import { useT } from "../i18n/use-t.ts";

export function PagePreview({ id, version, title }: { id: string; version: number | undefined; title: string }) {
  const t = useT();
  const [reloads, setReloads] = useState(0);
  return (
    <section aria-labelledby="preview-title" class="status-preview">
      <div class="page-head">
        <h2 id="preview-title">{t("status-pages:preview.title")}</h2>
        <button type="button" onClick={() => setReloads((n) => n + 1)}>
          {t("status-pages:preview.reload")}
        </button>
      </div>
      <p class="meta">{t("status-pages:preview.text")}</p>
      <iframe
        // A new frame for each saved version (and each reload): the preview follows what was saved.
        key={`${version}-${reloads}`}
        sandbox=""
        title={t("status-pages:preview.frame", { title })}
        src={`/api/v1/status-pages/${encodeURIComponent(id)}/preview`}
      />
    </section>
  );
}
