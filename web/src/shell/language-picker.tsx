// The signed-in user's console language (docs/adr/0479-console-i18n.md): switches at once, without a
// reload, and is saved on the user (PATCH /users/me `locale`), so it follows them to any browser.
// "Browser language" (null) follows the browser's languages again. Each language is named in itself.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { LOCALES, type Locale, setLocale } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

/** "Deutsch", "Français": a language's own name for itself, capitalised as a menu entry. */
function endonym(locale: Locale): string {
  const name = new Intl.DisplayNames([locale], { type: "language" }).of(locale) ?? locale;
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

export function LanguagePicker() {
  const t = useT();
  const session = useSession();
  const [choice, setChoice] = useState<Locale | null>(session.user.locale ?? null);
  const [error, setError] = useState<string>();
  const change = async (e: Event) => {
    const before = choice;
    const next = ((e.currentTarget as HTMLSelectElement).value || null) as Locale | null;
    setChoice(next);
    setError(undefined);
    await setLocale(next);
    try {
      await ok(api.PATCH("/api/v1/users/me", { body: { locale: next } }));
    } catch (err) {
      setChoice(before);
      await setLocale(before);
      setError(t("shell:language.saveFailed", { reason: messageOf(err) }));
    }
  };
  return (
    <label class="theme-toggle">
      <span class="visually-hidden">{t("shell:language.label")}</span>
      <select value={choice ?? ""} onChange={(e) => void change(e)} aria-label={t("shell:language.label")}>
        <option value="">{t("shell:language.browser")}</option>
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {endonym(l)}
          </option>
        ))}
      </select>
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}
