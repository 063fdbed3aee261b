// Light and dark themes: the system's preference (prefers-color-scheme) unless the operator picked one,
// which is remembered in this browser.
import { useState } from "preact/hooks";
import { useT } from "./i18n/use-t.ts";

type Theme = "light" | "dark" | "system";
const KEY = "svc-theme";

function apply(theme: Theme): void {
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

export function initTheme(): void {
  apply((localStorage.getItem(KEY) as Theme | null) ?? "system");
}

export function ThemeToggle() {
  const t = useT();
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem(KEY) as Theme | null) ?? "system");
  const change = (e: Event) => {
    const next = (e.currentTarget as HTMLSelectElement).value as Theme;
    setTheme(next);
    if (next === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, next);
    apply(next);
  };
  return (
    <label class="theme-toggle">
      <span class="visually-hidden">{t("shell:theme.label")}</span>
      <select value={theme} onChange={change} aria-label={t("shell:theme.label")}>
        <option value="system">{t("shell:theme.system")}</option>
        <option value="light">{t("shell:theme.light")}</option>
        <option value="dark">{t("shell:theme.dark")}</option>
      </select>
    </label>
  );
}
