// The saved page as the public sees it, drafts included (GET /status-pages/{id}/preview), in a frame that
// is sandboxed (no script, no navigation, an origin of its own) even though the page carries none.
import { useState } from "preact/hooks";

export function PagePreview({ id, version, title }: { id: string; version: number | undefined; title: string }) {
  const [reloads, setReloads] = useState(0);
  return (
    <section aria-labelledby="preview-title" class="status-preview">
      <div class="page-head">
        <h2 id="preview-title">Preview</h2>
        <button type="button" onClick={() => setReloads((n) => n + 1)}>
          Reload preview
        </button>
      </div>
      <p class="meta">The page as saved, as the public will see it once it is published. Save to see your changes here.</p>
      <iframe
        // A new frame for each saved version (and each reload): the preview follows what was saved.
        key={`${version}-${reloads}`}
        sandbox=""
        title={`Preview of ${title}`}
        src={`/api/v1/status-pages/${encodeURIComponent(id)}/preview`}
      />
    </section>
  );
}
