// The one hook a screen needs: `const t = useT();` then `t("shell:nav.inventory")`. The component
// re-renders when the language changes (docs/web-ui.md, Translations).
import i18next from "i18next";
import { useEffect, useState } from "preact/hooks";
import { t } from "./i18n.ts";

export function useT(): typeof t {
  const [, setLanguage] = useState(i18next.language);
  useEffect(() => {
    const changed = (lng: string) => setLanguage(lng);
    i18next.on("languageChanged", changed);
    return () => i18next.off("languageChanged", changed);
  }, []);
  return t;
}
