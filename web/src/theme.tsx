// Light and dark themes: the system's preference (prefers-color-scheme) unless the operator picked one,
// which is remembered in this browser.
import { useState } from "preact/hooks";

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
      <span class="visually-hidden">Theme</span>
      <select value={theme} onChange={change} aria-label="Theme">
        <option value="system">System theme</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}
