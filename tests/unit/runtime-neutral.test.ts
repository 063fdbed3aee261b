// docs/architecture.md, layers: functions/ and shared/ use web-standard APIs only, so the same code runs on Node and on
// workerd; the entries live in bin/ (the workerd one, bin/worker.ts, is web-standard too). And the rules of the tree (docs/architecture.md, layers; docs/adr/ 0001-0008,
// "Runtime"): which folder may import which, and the verb contract's "no transaction outside
// shared/services/verb.ts".
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

const RULES: [string, RegExp][] = [
  ['imports a node: module', /\bfrom\s*["']node:|\bimport\s*\(\s*["']node:|\brequire\s*\(\s*["']node:|^\s*import\s*["']node:/m],
  ["uses Buffer", /\bBuffer\s*[.(]|\bnew\s+Buffer\b/],
  ["uses process", /(?<![.\w$])process\s*(\.|\[|\?\.)/],
];

/** The folders each folder must not import: the halves never import each other, the entries compose them. */
const FORBIDDEN_IMPORTS: Record<string, readonly string[]> = {
  // functions/ holds HTTP only: the database is reached through verbs (shared/services), never shared/db.
  functions: ["sidecar", "runtime", "bin", "shared/db"],
  sidecar: ["functions", "bin"],
  shared: ["functions", "sidecar", "runtime", "bin"],
};

/** Opening a transaction: drizzle's `.transaction(` or postgres.js's `.begin(`. */
const OPENS_TRANSACTION = /\.(transaction|begin)\s*\(/;

/**
 * Where a transaction may be opened. verb.ts is the verb contract itself (a verb's transaction and its
 * savepoints). advisory-lock.ts holds a job's advisory lock in a transaction that writes nothing and
 * must outlive the job's many short verbs, so it cannot be one of them.
 */
const TRANSACTIONS_ALLOWED = new Set(["shared/services/verb.ts", "shared/db/advisory-lock.ts"]);

function tsFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)).split("\\").join("/"));
}

/** Comments may mention the rules ("no process.env here"); only code counts. */
function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** The repository paths a file imports (static, re-exported, side-effect and dynamic imports). */
function importsOf(file: string): string[] {
  const code = stripComments(readFileSync(join(root, file), "utf8"));
  const specifiers = [...code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g)].map((m) => (m[1] ?? m[2])!);
  return specifiers.filter((s) => s.startsWith(".")).map((s) => join(file, "..", s).split("\\").join("/"));
}

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

describe("the tree's rules", () => {
  it("finds the folders it checks", () => {
    for (const dir of ["bin", "functions", "runtime", "shared", "sidecar"]) expect(tsFiles(dir).length, dir).toBeGreaterThan(0);
  });

  it("functions/ imports no sidecar/, runtime/, bin/ or shared/db; sidecar/ no functions/ or bin/; shared/ none of them", () => {
    const offences = Object.entries(FORBIDDEN_IMPORTS).flatMap(([dir, forbidden]) =>
      tsFiles(dir).flatMap((f) => importsOf(f).filter((i) => forbidden.some((d) => i.startsWith(`${d}/`))).map((i) => `${f} -> ${i}`)),
    );
    expect(offences, offences.join("\n")).toEqual([]);
  });

  it("no transaction is opened outside shared/services/verb.ts (and the advisory lock)", () => {
    const offences = ["bin", "functions", "runtime", "shared", "sidecar"]
      .flatMap(tsFiles)
      .filter((f) => !TRANSACTIONS_ALLOWED.has(f) && OPENS_TRANSACTION.test(stripComments(readFileSync(join(root, f), "utf8"))));
    expect(offences, `transactions outside the verb contract:\n${offences.join("\n")}`).toEqual([]);
    for (const allowed of TRANSACTIONS_ALLOWED) expect(tsFiles(allowed.split("/")[0]!), allowed).toContain(allowed);
  });

  it("the transaction rule catches what it should", () => {
    expect(OPENS_TRANSACTION.test("await db.transaction(async (tx) => {})")).toBe(true);
    expect(OPENS_TRANSACTION.test("await sql.begin(async (tx) => {})")).toBe(true);
    expect(OPENS_TRANSACTION.test("const t = s.transactions; beginning();")).toBe(false);
    expect(stripComments("// one short db.transaction( per batch\nconst x = 1;")).not.toMatch(OPENS_TRANSACTION);
  });
});
