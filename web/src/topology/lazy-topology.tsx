// The topology screen loaded on first visit: cytoscape is most of its weight, and the other screens
// should not download it.
import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Notice } from "../components/field.tsx";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import type { Location } from "../router.tsx";

type Page = ComponentType<{ loc: Location }>;
let loaded: Page | undefined;

export function LazyTopology({ loc }: { loc: Location }) {
  useT();
  const [Page, setPage] = useState<Page | undefined>(() => loaded);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (loaded) return;
    import("./topology-page.tsx").then(
      (m) => setPage(() => (loaded = m.TopologyPage)),
      (e: unknown) => setError(t("topology:loadFailed", { reason: String(e) })),
    );
  }, []);
  if (error) return <Notice kind="error">{error}</Notice>;
  return Page ? <Page loc={loc} /> : <p aria-busy="true">{t("topology:loading")}</p>;
}
