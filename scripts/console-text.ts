// Writes the console's English catalogues of the text shared/domain writes for people
// (web/src/locales/en/notifier-fields.json, metrics.json) from shared/domain/console-text.ts, so the
// English can never drift from the domain's own text (docs/web-ui.md, Translations). The other languages
// are written by hand; tests/unit/console-text.test.ts checks they have every key. `--check` only
// compares (exit 1 on drift), as tests/unit/console-text.test.ts does.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { consoleTextEntries, DOMAIN_NAMESPACES, type DomainNamespace } from "../shared/domain/console-text.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The English catalogue file of a generated namespace. */
export const englishFile = (ns: DomainNamespace): string => join(root, "web/src/locales/en", `${ns}.json`);

/** Each generated namespace's English file as it should read. */
export function consoleTextFiles(): Record<DomainNamespace, string> {
  const entries = consoleTextEntries();
  return Object.fromEntries(DOMAIN_NAMESPACES.map((ns) => [ns, `${JSON.stringify(entries[ns], null, 2)}\n`])) as Record<
    DomainNamespace,
    string
  >;
}

/** The generated namespaces whose English file differs from shared/domain's text. */
export function staleConsoleText(): DomainNamespace[] {
  const files = consoleTextFiles();
  return DOMAIN_NAMESPACES.filter((ns) => {
    let current = "";
    try {
      current = readFileSync(englishFile(ns), "utf8");
    } catch {}
    return current !== files[ns];
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const stale = staleConsoleText();
  if (process.argv.includes("--check")) {
    if (stale.length > 0) {
      console.error(`out of date: ${stale.map(englishFile).join(", ")}; run node scripts/console-text.ts`);
      process.exit(1);
    }
  } else {
    const files = consoleTextFiles();
    for (const ns of stale) writeFileSync(englishFile(ns), files[ns]);
    console.log(stale.length ? `wrote ${stale.map(englishFile).join(", ")}` : "up to date");
  }
}
