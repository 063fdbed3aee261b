// DESIGN.md 4: functions/ and shared/ use web-standard APIs only, so the same code runs on Node and on
// workerd. The one exception is the Node entry functions/node.ts.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const EXEMPT = new Set(["functions/node.ts"]);

const RULES: [string, RegExp][] = [
  ['imports a node: module', /\bfrom\s*["']node:|\bimport\s*\(\s*["']node:|\brequire\s*\(\s*["']node:|^\s*import\s*["']node:/m],
  ["uses Buffer", /\bBuffer\s*[.(]|\bnew\s+Buffer\b/],
  ["uses process", /(?<![.\w$])process\s*(\.|\[|\?\.)/],
];

function tsFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)).split("\\").join("/"));
}

/** Comments may mention the rules ("no process.env here"); only code counts. */
function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

describe("runtime-neutral code", () => {
  const files = [...tsFiles("functions"), ...tsFiles("shared")].filter((f) => !EXEMPT.has(f));

  it("finds the files it checks", () => {
    expect(files).toContain("functions/app.ts");
    expect(files).toContain("functions/worker.ts");
    expect(files.some((f) => f.startsWith("shared/"))).toBe(true);
  });

  it("functions/ and shared/ use no node: module, Buffer or process (except functions/node.ts)", () => {
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

  it("functions/ and shared/ never import sidecar/; shared/ never imports functions/ or runtime/", () => {
    const importsOf = (file: string) =>
      [...stripComments(readFileSync(join(root, file), "utf8")).matchAll(/\bfrom\s*["']([^"']+)["']/g)].map((m) => join(file, "..", m[1]!).split("\\").join("/"));
    const offences = [
      ...[...tsFiles("functions"), ...tsFiles("shared")].flatMap((f) => importsOf(f).filter((i) => i.startsWith("sidecar/")).map((i) => `${f} -> ${i}`)),
      ...tsFiles("shared").flatMap((f) => importsOf(f).filter((i) => i.startsWith("functions/") || i.startsWith("runtime/")).map((i) => `${f} -> ${i}`)),
    ];
    expect(offences, offences.join("\n")).toEqual([]);
  });
});
