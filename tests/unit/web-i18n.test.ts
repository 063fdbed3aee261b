// The console's catalogue (docs/web-ui.md, Translations): no visible English outside it in a translated
// screen, every key used exists in English, every English key in each language with the same variables
// and the plural forms that language needs, and no English key unused.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOMAIN_NAMESPACES } from "../../shared/domain/console-text.ts";
import { LOCALES } from "../../shared/identity/locales.ts";
import { baseKey, catalogue, isPluralForm, LOCALES_DIR, sourceFiles, usedKeys, variables, visibleLiterals } from "./web-i18n-scan.ts";

/** Screens not yet translated: the list only shrinks. */
const pending = new Set(
  readFileSync(join(LOCALES_DIR, "pending.txt"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#")),
);
const tsx = sourceFiles(/\.tsx$/);
const en = catalogue("en");
const enBases = new Set([...en.keys()].map(baseKey));
/** The plural forms each language needs, as i18next picks them (Intl.PluralRules). */
const pluralForms = (lang: string) => new Intl.PluralRules(lang).resolvedOptions().pluralCategories.slice().sort();
/** en's plural bases: those with an _other form. */
const pluralBases = new Set([...en.keys()].filter((k) => k.endsWith("_other")).map(baseKey));

describe("web console translations", () => {
  it("the pending list names only existing .tsx files", () => {
    expect([...pending].filter((f) => !tsx.includes(f))).toEqual([]);
  });

  it("a translated screen shows no English outside the catalogue", () => {
    const left = tsx.filter((f) => !pending.has(f)).flatMap((f) => visibleLiterals(f));
    expect(left.map((l) => `${l.file}:${l.line} "${l.text}"`)).toEqual([]);
  });

  it("the scan finds English in JSX text, shown literals and visible attributes, and honours i18n-ignore", () => {
    const source = [
      "const A = () => (",
      '  <p title="Hover text" class="meta" data-x="Not shown">',
      "    Plain text {n}",
      '    {busy ? "Saving…" : t("common:save.saving")}',
      // A template literal in the snippet; split so it is not one here.
      "    {`$" + "{n} items`}",
      "    {/* i18n-ignore: a command, not prose */}",
      "    <code>npm start</code>",
      '    <input placeholder={t("x:y")} aria-label="Name" />',
      '    {42} — {t("common:cancel")}',
      "  </p>",
      ");",
    ].join("\n");
    const found = visibleLiterals("web/src/example.tsx", source).map((l) => `${l.line} ${l.text}`);
    expect(found).toEqual(["2 Hover text", "3 Plain text", "4 Saving…", "5 items", "8 Name"]);
  });

  it("the catalogues hold exactly the languages users can choose", () => {
    const dirs = readdirSync(LOCALES_DIR, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(dirs.sort()).toEqual([...LOCALES].sort());
  });

  const uses = sourceFiles(/\.tsx?$/).flatMap(usedKeys);

  it('every key used is "namespace:key" and exists in English', () => {
    const missing = uses.filter((u) => !/^[a-z-]+:[\w.-]+$/.test(u.key) || !enBases.has(u.key));
    expect(missing.map((u) => `${u.file}:${u.line} ${u.key}`)).toEqual([]);
  });

  // Except in the namespaces generated from shared/domain (provider field hints, metric descriptions): the
  // console builds their keys at run time from the domain's own lists, and tests/unit/console-text.test.ts
  // checks that every domain entry has its key, in every language, and that English is the domain's text.
  const generated = (key: string) => (DOMAIN_NAMESPACES as readonly string[]).includes(key.slice(0, key.indexOf(":")));

  it("no English key is unused", () => {
    const used = new Set(uses.map((u) => u.key));
    expect([...enBases].filter((k) => !used.has(k) && !generated(k))).toEqual([]);
  });

  it("English plural keys have exactly English's plural forms", () => {
    const wrong = [...pluralBases].filter(
      (b) =>
        JSON.stringify(
          [...en.keys()]
            .filter((k) => baseKey(k) === b && isPluralForm(k))
            .map((k) => k.slice(b.length + 1))
            .sort(),
        ) !== JSON.stringify(pluralForms("en")),
    );
    expect(wrong).toEqual([]);
  });

  for (const lang of LOCALES.filter((l) => l !== "en")) {
    it(`${lang} has every English key, non-empty, with the same variables and ${lang}'s plural forms`, () => {
      const cat = catalogue(lang);
      const problems: string[] = [];
      for (const base of enBases) {
        const forms = pluralBases.has(base) ? pluralForms(lang).map((f) => `${base}_${f}`) : [base];
        const enForms = pluralBases.has(base) ? [...en.keys()].filter((k) => baseKey(k) === base) : [base];
        const enVars = variables(enForms.map((k) => en.get(k)).join(" "));
        for (const k of forms) if (!cat.get(k)?.trim()) problems.push(`${k}: missing or empty`);
        const vars = variables(forms.map((k) => cat.get(k) ?? "").join(" "));
        // A plural's count may be said in words ("eine Stunde"): compare the other variables.
        const strip = (v: string[]) => (pluralBases.has(base) ? v.filter((x) => x !== "count") : v);
        if (JSON.stringify(strip(vars)) !== JSON.stringify(strip(enVars))) problems.push(`${base}: variables ${vars} instead of ${enVars}`);
      }
      for (const k of cat.keys()) {
        const b = baseKey(k);
        if (
          !enBases.has(b) ||
          (isPluralForm(k) &&
            !pluralForms(lang)
              .map((f) => `${b}_${f}`)
              .includes(k))
        )
          problems.push(`${k}: not an English key`);
      }
      expect(problems).toEqual([]);
    });
  }
});
