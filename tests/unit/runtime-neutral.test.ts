// docs/architecture.md, layers: functions/ and shared/ use web-standard APIs only, so the same code runs on Node and on
// workerd; the entries live in bin/ (the workerd one, bin/worker.ts, is web-standard too). Which folder
// may import which, import circles and where a transaction may open: tests/unit/import-rules.test.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot as root, stripComments, tsFiles } from "../helpers/source-files.ts";

const RULES: [string, RegExp][] = [
  ["imports a node: module", /\bfrom\s*["']node:|\bimport\s*\(\s*["']node:|\brequire\s*\(\s*["']node:|^\s*import\s*["']node:/m],
  ["uses Buffer", /\bBuffer\s*[.(]|\bnew\s+Buffer\b/],
  ["uses process", /(?<![.\w$])process\s*(\.|\[|\?\.)/],
];

describe("runtime-neutral code", () => {
  const files = [...tsFiles("functions"), ...tsFiles("shared"), "bin/worker.ts"];

  it("finds the files it checks", () => {
    expect(files).toContain("functions/app.ts");
    expect(files).toContain("bin/worker.ts");
    expect(files.some((f) => f.startsWith("shared/"))).toBe(true);
  });

  it("functions/, shared/ and the workerd entry use no node: module, Buffer or process", () => {
    const offences: string[] = [];
    for (const file of files) {
      const code = stripComments(readFileSync(join(root, file), "utf8"));
      for (const [what, rule] of RULES) if (rule.test(code)) offences.push(`${file}: ${what}`);
    }
    expect(offences, `not runtime-neutral:\n${offences.join("\n")}`).toEqual([]);
  });

  it("the rules catch what they should", () => {
    const hits = (src: string) => RULES.filter(([, r]) => r.test(stripComments(src))).map(([w]) => w);
    expect(hits('import { readFile } from "node:fs";')).toEqual(["imports a node: module"]);
    expect(hits('const m = await import("node:os");')).toEqual(["imports a node: module"]);
    expect(hits('const b = require("node:buffer");')).toEqual(["imports a node: module"]);
    expect(hits('const s = Buffer.from("x").toString("base64");')).toEqual(["uses Buffer"]);
    expect(hits("const u = process.env.DATABASE_URL;")).toEqual(["uses process"]);
    expect(hits("process.exit(1);")).toEqual(["uses process"]);
    expect(hits("// process.env is read only by the entry\nconst x = 1;")).toEqual([]);
    expect(hits("const preprocess = x; deps.process.run(); const t = 'subprocess';")).toEqual([]);
  });
});
