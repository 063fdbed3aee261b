// The console's languages (docs/web-ui.md, Translations; docs/adr/0479-console-i18n.md): i18next with
// every catalogue bundled (web/src/locales/<language>/<namespace>.json, the console works offline). The
// signed-in user's choice wins (setLocale); without one, the browser's languages pick, then English.
import i18next from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { LOCALES, type Locale } from "../../../shared/identity/locales.ts";

export { LOCALES, type Locale };

// Vite bundles every catalogue file at build time: a new namespace is only a new file per language.
const files = import.meta.glob<Record<string, string>>("../locales/*/*.json", { eager: true, import: "default" });
const resources: Record<string, Record<string, Record<string, string>>> = {};
for (const [path, catalogue] of Object.entries(files)) {
  const [, lang, ns] = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path)!;
  (resources[lang!] ??= {})[ns!] = catalogue;
}

void i18next.use(LanguageDetector).init({
  resources,
  supportedLngs: [...LOCALES],
  fallbackLng: "en",
  defaultNS: "common",
  ns: Object.keys(resources.en ?? {}),
  // Keys are flat dotted ids ("nav.inventory") in flat JSON files; only "ns:" separates.
  keySeparator: false,
  // Catalogues are bundled: initialised before the first render.
  initAsync: false,
  // Preact escapes text itself.
  interpolation: { escapeValue: false },
  // Only the browser's languages, never remembered here: the user's choice lives on the server.
  detection: { order: ["navigator"], caches: [], convertDetectedLanguage: (lng: string) => lng.split("-")[0]!.toLowerCase() },
});

/** The active language, one of LOCALES. */
export function activeLocale(): Locale {
  const lang = i18next.resolvedLanguage ?? "en";
  return (LOCALES as readonly string[]).includes(lang) ? (lang as Locale) : "en";
}

/** Switch to the user's language, or back to the browser's with null; `<html lang>` follows. */
export async function setLocale(locale: Locale | null | undefined): Promise<void> {
  const detector = i18next.services.languageDetector as { detect(): string | string[] | undefined } | undefined;
  const detected = detector?.detect();
  await i18next.changeLanguage(locale ?? (Array.isArray(detected) ? detected.find(isLocale) : detected) ?? "en");
}

function isLocale(lang: string): boolean {
  return (LOCALES as readonly string[]).includes(lang);
}

// "{{group, lowercase}}": a title inside a sentence, where the language lower-cases it (English does,
// German does not).
i18next.services.formatter?.add("lowercase", (value: unknown, lng: string | undefined) => String(value).toLocaleLowerCase(lng));

const syncHtmlLang = () => {
  document.documentElement.lang = activeLocale();
};
i18next.on("languageChanged", syncHtmlLang);
syncHtmlLang();

/** Translate outside a component (a message built in an event handler); components use useT(). */
export const t = i18next.t.bind(i18next);

/**
 * Marks a key that is stored now and translated later (`t(item.label)`), so the catalogue test sees it
 * used: `label: i18nKey("shell:nav.inventory")`.
 */
export const i18nKey = <K extends string>(key: K): K => key;

/** `t` as a plain function of a key and its variables, for code that also runs outside the console (rule-text.ts). */
export const say = (key: string, vars?: Record<string, unknown>): string => String(t(key, vars ?? {}));
