// The rules of the tree (README "Layout", docs/architecture.md "Import rules"): which folder may import
// which, with the direction of each written once below; no import circle anywhere in the repository's
// own code; and the verb contract's "no transaction outside shared/verbs/verb.ts".
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot as root, stripComments, tsFiles } from "../helpers/source-files.ts";

/**
 * What each top-level folder may import besides itself (relative imports only; packages are not
 * checked here). bin/ composes everything, so it has no row. shared/db is a folder of its own here:
 * only the rows that name it (or "shared/" whole, for shared and the Node halves) may reach it.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  shared: ["shared/db"],
  functions: ["shared"],
  sidecar: ["shared", "shared/db", "runtime", "net"],
  runtime: ["shared", "shared/db", "net"],
  net: ["shared"],
  agent: ["shared", "net"],
  cli: [],
  web: ["shared"],
  scripts: ["functions", "shared"],
};

/** The folders whose whole import closure must stay out of shared/db: they ship without the server. */
const NO_DATABASE_CLOSURE = ["agent", "cli", "web"];

/**
 * Temporary: net/ping*.ts still reach into the monitor checks, and the monitors' reach/result pair
 * imports each other; both are moved by the check-type registry work (issue 27, another branch).
 * Delete these entries when that lands.
 */
const TEMPORARY_EXCEPTIONS = new Map<string, string>([]);

const FOLDERS = ["bin", ...Object.keys(MAY_IMPORT)];

/**
 * Opening a transaction: drizzle's `.transaction(`, postgres.js's `.begin(`, or a BEGIN sent by hand
 * (`.unsafe("begin ...")`, or a tagged `begin`) on a reserved connection.
 */
const OPENS_TRANSACTION =
  /\.(transaction|begin)\s*\(|\.unsafe\s*\(\s*["'`]\s*(begin|start\s+transaction)\b|`\s*(begin|start\s+transaction)\b/i;

/** Where a transaction may be opened, and why. */
const TRANSACTIONS_ALLOWED = new Map<string, string>([
  ["shared/verbs/verb.ts", "the verb contract itself: a verb's transaction and its savepoints"],
  [
    "shared/db/advisory-lock.ts",
    "a job's advisory lock is held in a transaction that writes nothing and must outlive the job's many short verbs",
  ],
  [
    "runtime/backups/copy-dump.ts",
    "the COPY fallback of a backup reads every table from one repeatable-read, read-only snapshot held on a reserved connection for the whole stream; it writes nothing and rolls back",
  ],
]);

/** The relative specifiers of a source (static, type, re-exported, side-effect and dynamic imports). */
function specifiersOf(code: string): string[] {
  return [...stripComments(code).matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g)]
    .map((m) => (m[1] ?? m[2])!)
    .filter((s) => s.startsWith("."));
}

/** The repository's own import graph: file -> the files it imports (every folder the rules cover). */
function importGraph(): Map<string, string[]> {
  const files = FOLDERS.flatMap(tsFiles);
  const known = new Set(files);
  const resolve = (path: string) => [path, `${path}.ts`, `${path}.tsx`, `${path}/index.ts`].find((p) => known.has(p));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiersOf(readFileSync(join(root, file), "utf8")).map((s) => resolve(join(file, "..", s).split("\\").join("/")));
    graph.set(file, [...new Set(targets.filter((t): t is string => t !== undefined))]);
  }
  return graph;
}

/** Tarjan's strongly connected components; each returned component is one import circle's files. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  // Iterative, so a deep chain of imports cannot overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: [node: string, next: number][] = [[start, 0]];
    index.set(start, index.size);
    low.set(start, index.get(start)!);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work.at(-1)!;
      const [node, next] = frame;
      const edges = graph.get(node) ?? [];
      if (next < edges.length) {
        frame[1]++;
        const to = edges[next]!;
        if (!index.has(to)) {
          index.set(to, index.size);
          low.set(to, index.get(to)!);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!));
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || edges.includes(node)) found.push(component.sort());
      }
    }
  }
  return found;
}

/** The folder a file belongs to for the rules: shared/db apart from the rest of shared. */
const areaOf = (file: string) => (file.startsWith("shared/db/") ? "shared/db" : file.split("/")[0]!);

function crossings(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const allowed = MAY_IMPORT[file.split("/")[0]!];
    if (!allowed) continue;
    for (const target of targets) {
      const to = areaOf(target);
      if (to === areaOf(file) || (to === "shared" && file.startsWith("shared/")) || allowed.includes(to)) continue;
      out.push(`${file} -> ${target}`);
    }
  }
  return out;
}

/** The shared/db files a folder's import closure reaches, each with one path that reaches it. */
function databaseReach(graph: Map<string, string[]>, folder: string): string[] {
  const from = new Map<string, string | null>([...graph.keys()].filter((f) => f.startsWith(`${folder}/`)).map((f) => [f, null]));
  const queue = [...from.keys()];
  for (let i = 0; i < queue.length; i++)
    for (const to of graph.get(queue[i]!) ?? [])
      if (!from.has(to)) {
        from.set(to, queue[i]!);
        queue.push(to);
      }
  return [...from.keys()]
    .filter((f) => f.startsWith("shared/db/"))
    .map((f) => {
      const path = [f];
      for (let at = from.get(f); at; at = from.get(at)) path.unshift(at);
      return path.join(" -> ");
    });
}

const withoutExceptions = (offences: string[]) => offences.filter((o) => !TEMPORARY_EXCEPTIONS.has(o));

describe("the tree's rules", () => {
  const graph = importGraph();

  it("covers every top-level folder of code", () => {
    const topLevel = readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules")
      .filter((e) => tsFiles(e.name).length > 0)
      .map((e) => e.name);
    // tests/ may import anything; spec/ and docs/ hold no code of the product.
    expect(topLevel.filter((d) => !FOLDERS.includes(d) && d !== "tests").sort()).toEqual([]);
    for (const dir of FOLDERS) expect(tsFiles(dir).length, dir).toBeGreaterThan(0);
  });

  it("each folder imports only what its row allows", () => {
    const offences = withoutExceptions(crossings(graph));
    expect(offences, `imports against the direction of the tree:\n${offences.join("\n")}`).toEqual([]);
  });

  it("agent/ and web/ reach no shared/db file, directly or through what they import", () => {
    const offences = NO_DATABASE_CLOSURE.flatMap((folder) => databaseReach(graph, folder));
    expect(offences, offences.join("\n")).toEqual([]);
  });

  it("there is no import circle", () => {
    const found = withoutExceptions(circles(graph).map((c) => `circle: ${c.join(", ")}`));
    expect(found, `import circles (strongly connected components):\n${found.join("\n")}`).toEqual([]);
  });

  it("the temporary exceptions still exist (delete an entry once it is fixed)", () => {
    const current = new Set([...crossings(graph), ...circles(graph).map((c) => `circle: ${c.join(", ")}`)]);
    expect([...TEMPORARY_EXCEPTIONS.keys()].filter((e) => !current.has(e))).toEqual([]);
  });

  it("the circle finder and the direction check catch what they should", () => {
    const g = (edges: [string, string][]) => {
      const m = new Map<string, string[]>();
      for (const [a, b] of edges) (m.get(a) ?? m.set(a, []).get(a)!).push(b), m.has(b) || m.set(b, []);
      return m;
    };
    expect(
      circles(
        g([
          ["a.ts", "b.ts"],
          ["b.ts", "c.ts"],
          ["c.ts", "a.ts"],
          ["c.ts", "d.ts"],
        ]),
      ),
    ).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(
      circles(
        g([
          ["a.ts", "b.ts"],
          ["b.ts", "c.ts"],
        ]),
      ),
    ).toEqual([]);
    expect(circles(g([["a.ts", "a.ts"]]))).toEqual([["a.ts"]]);
    expect(
      crossings(
        g([
          ["net/x.ts", "sidecar/y.ts"],
          ["functions/r.ts", "shared/db/schema.ts"],
          ["functions/r.ts", "shared/verbs/v.ts"],
          ["shared/a.ts", "shared/db/b.ts"],
        ]),
      ),
    ).toEqual(["net/x.ts -> sidecar/y.ts", "functions/r.ts -> shared/db/schema.ts"]);
    expect(
      databaseReach(
        g([
          ["agent/a.ts", "shared/s.ts"],
          ["shared/s.ts", "shared/db/d.ts"],
        ]),
        "agent",
      ),
    ).toEqual(["agent/a.ts -> shared/s.ts -> shared/db/d.ts"]);
    expect(
      specifiersOf(
        'import type { A } from "./a.ts";\nexport { b } from "../b.ts";\nawait import("./c.ts");\nimport "./d.ts";\nimport x from "pkg";',
      ),
    ).toEqual(["./a.ts", "../b.ts", "./c.ts", "./d.ts"]);
  });

  it("no transaction is opened outside shared/verbs/verb.ts (and the listed exceptions)", () => {
    const offences = FOLDERS.flatMap(tsFiles).filter(
      (f) => !TRANSACTIONS_ALLOWED.has(f) && OPENS_TRANSACTION.test(stripComments(readFileSync(join(root, f), "utf8"))),
    );
    expect(offences, `transactions outside the verb contract:\n${offences.join("\n")}`).toEqual([]);
    for (const [allowed] of TRANSACTIONS_ALLOWED)
      expect(OPENS_TRANSACTION.test(stripComments(readFileSync(join(root, allowed), "utf8"))), allowed).toBe(true);
  });

  it("the transaction rule catches what it should", () => {
    expect(OPENS_TRANSACTION.test("await db.transaction(async (tx) => {})")).toBe(true);
    expect(OPENS_TRANSACTION.test("await sql.begin(async (tx) => {})")).toBe(true);
    expect(OPENS_TRANSACTION.test('await tx.unsafe("begin isolation level repeatable read read only")')).toBe(true);
    expect(OPENS_TRANSACTION.test("await tx.unsafe('START TRANSACTION')")).toBe(true);
    expect(OPENS_TRANSACTION.test("await held`begin`")).toBe(true);
    expect(OPENS_TRANSACTION.test("const t = s.transactions; beginning(); tx.unsafe(`copy x to stdout`)")).toBe(false);
    expect(stripComments("// one short db.transaction( per batch\nconst x = 1;")).not.toMatch(OPENS_TRANSACTION);
  });
});
