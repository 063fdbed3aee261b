// The text shared/domain writes for people reaches the console in every language (docs/web-ui.md,
// Translations): the English catalogues are shared/domain's text (scripts/console-text.ts), every field
// hint, provider name and metric description has its key in all four languages, and the console's lookups find them,
// here through a real i18next over the real catalogue files.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { FS_METRIC, METRICS } from "../../shared/domain/alert-rules/metrics.ts";
import { consoleTextEntries, DOMAIN_NAMESPACES, metricKey, notifierHintKey, notifierLabelKey } from "../../shared/domain/console-text.ts";
import { NOTIFIER_FIELDS, NOTIFIER_TYPES } from "../../shared/domain/notifications/notifiers/index.ts";
import { LOCALES } from "../../shared/identity/locales.ts";
import { staleConsoleText } from "../../scripts/console-text.ts";
import { fieldHint, metricDescription, providerName } from "../../web/src/i18n/domain-text.ts";
import { LOCALES_DIR, variables } from "./web-i18n-scan.ts";

const file = (lang: string, ns: string): Record<string, string> => JSON.parse(readFileSync(join(LOCALES_DIR, lang, `${ns}.json`), "utf8"));
const has = (lang: string, full: string) => {
  const [ns, key] = [full.slice(0, full.indexOf(":")), full.slice(full.indexOf(":") + 1)];
  return Boolean(file(lang, ns)[key]?.trim());
};

describe("console text from shared/domain", () => {
  it("the English catalogues are shared/domain's text (node scripts/console-text.ts rewrites them)", () => {
    expect(staleConsoleText(), "out of date: run node scripts/console-text.ts").toEqual([]);
  });

  // The domain's lists themselves, walked as the console walks them, not the generated files.
  const wanted = [
    ...NOTIFIER_TYPES.map(notifierLabelKey),
    ...Object.entries(NOTIFIER_FIELDS).flatMap(([type, fields]) =>
      Object.entries(fields)
        .filter(([, f]) => f.hint)
        .map(([key]) => notifierHintKey(type, key)),
    ),
    ...METRICS.map((m) => metricKey(m.name)),
    metricKey(`${FS_METRIC}{/var}`),
  ];

  it("walks every provider name, hint and metric of the domain", () => {
    const entries = consoleTextEntries();
    const count = DOMAIN_NAMESPACES.reduce((n, ns) => n + Object.keys(entries[ns]).length, 0);
    expect(new Set(wanted).size).toBe(count);
    expect(count).toBeGreaterThan(METRICS.length + 50);
  });

  for (const lang of LOCALES)
    it(`${lang} has every domain entry, with English's variables and nothing else`, () => {
      const entries = consoleTextEntries();
      const problems = wanted.filter((k) => !has(lang, k)).map((k) => `${k}: missing`);
      for (const ns of DOMAIN_NAMESPACES) {
        const cat = file(lang, ns);
        for (const [key, text] of Object.entries(cat)) {
          const english = entries[ns][key];
          if (english === undefined) problems.push(`${ns}:${key}: not a domain entry`);
          else if (JSON.stringify(variables(text)) !== JSON.stringify(variables(english))) problems.push(`${ns}:${key}: variables differ`);
        }
      }
      expect(problems).toEqual([]);
    });

  describe("the console's lookups", () => {
    const i18n = i18next.createInstance();
    beforeAll(async () => {
      const resources = Object.fromEntries(LOCALES.map((l) => [l, Object.fromEntries(DOMAIN_NAMESPACES.map((ns) => [ns, file(l, ns)]))]));
      // As web/src/i18n/i18n.ts sets it up.
      await i18n.init({ resources, lng: "de", fallbackLng: "en", keySeparator: false, interpolation: { escapeValue: false } });
    });

    it("show a provider field's hint in the language, the template examples as written", async () => {
      await i18n.changeLanguage("de");
      const hint = NOTIFIER_FIELDS.pagerduty.routing_key!.hint;
      expect(fieldHint(i18n.t, "pagerduty", "routing_key", hint)).toBe(
        "Der Integration Key einer Events-API-v2-Integration des PagerDuty-Dienstes (32 Zeichen).",
      );
      expect(fieldHint(i18n.t, "slack", "title_template", NOTIFIER_FIELDS.slack.title_template!.hint)).toContain(
        "{{monitor.name}} ist {{status}}",
      );
      expect(fieldHint(i18n.t, "webhook", "url", NOTIFIER_FIELDS.webhook.url!.hint)).toBeUndefined();
      await i18n.changeLanguage("en");
      expect(fieldHint(i18n.t, "ntfy", "body_template", NOTIFIER_FIELDS.ntfy.body_template!.hint)).toBe(
        NOTIFIER_FIELDS.ntfy.body_template!.hint,
      );
    });

    it("show a provider's name in the language, product names as they are", async () => {
      await i18n.changeLanguage("es");
      expect(providerName(i18n.t, "http_request")).toBe("Petición HTTP");
      expect(providerName(i18n.t, "pagerduty")).toBe("PagerDuty");
      await i18n.changeLanguage("en");
      expect(providerName(i18n.t, "email")).toBe("email");
      expect(providerName(i18n.t, "http_request")).toBe("HTTP request");
    });

    it("show a metric's description in the language, a filesystem's with its mount", async () => {
      await i18n.changeLanguage("fr");
      expect(metricDescription(i18n.t, "host.cpu_pct")).toBe("Utilisation du CPU signalée par l’agent");
      expect(metricDescription(i18n.t, `${FS_METRIC}{/var/lib}`)).toBe(
        "Occupation du système de fichiers monté sur /var/lib signalée par l’agent",
      );
      expect(metricDescription(i18n.t, "host.nope")).toBeUndefined();
      await i18n.changeLanguage("en");
      expect(metricDescription(i18n.t, `${FS_METRIC}{/var}`)).toBe("Use of the filesystem mounted at /var reported by the agent");
      expect(metricDescription(i18n.t, "live.temp_c")).toBe(METRICS.find((m) => m.name === "live.temp_c")!.description);
    });
  });
});
