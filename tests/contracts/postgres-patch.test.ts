// Contract of patches/postgres+3.4.9.patch (applied by patch-package on `npm install`): postgres.js
// 3.4.9 writes small messages from a setImmediate, and when the socket is already gone (a reserved
// connection whose backend died, as sidecar/startup/migrate.ts's lock holder can be) that write threw a
// TypeError from the timer: an uncaught exception that ends the process, while the query never settled
// (porsager/postgres#1208). The patch settles such a query with CONNECTION_CLOSED instead, and resets
// the write timer when a connection closes.
import { readdirSync, readFileSync } from "node:fs";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { because, eventually, installedVersion, librarySource, type Workaround } from "./support.ts";

const W: Workaround = { name: "postgres-patch", file: "patches/postgres+3.4.9.patch", libs: { postgres: "3.4.9" } };
const PATCHES = new URL("../../patches/", import.meta.url);

/** The lines each patch adds, by the file (under node_modules/) it patches. */
function addedLines(patch: string): Map<string, string[]> {
  const files = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of patch.split("\n")) {
    const file = /^\+\+\+ b\/node_modules\/(.+)$/.exec(line)?.[1];
    if (file) files.set(file, (current = []));
    else if (line.startsWith("+") && !line.startsWith("+++") && line.slice(1).trim() !== "") current?.push(line.slice(1).trim());
  }
  return files;
}

describe("the installed postgres.js carries the patch", () => {
  const patches = readdirSync(PATCHES).filter((f) => f.startsWith("postgres+"));

  it("the patch was made for the installed postgres.js version", () => {
    expect(
      patches.map((f) => f.replace(/^postgres\+|\.patch$/g, "")),
      because(
        W,
        "postgres.js is still 3.4.9; after an upgrade check whether porsager/postgres#1208 is fixed there, then drop or regenerate the patch",
      ),
    ).toEqual([installedVersion("postgres")]);
  });

  it("every line the patch adds is in the installed files (src, cjs and cf builds)", () => {
    for (const name of patches) {
      const files = addedLines(readFileSync(new URL(name, PATCHES), "utf8"));
      expect([...files.keys()].sort()).toEqual([
        "postgres/cf/src/connection.js",
        "postgres/cjs/src/connection.js",
        "postgres/src/connection.js",
      ]);
      for (const [file, lines] of files) {
        const source = librarySource(file);
        const missing = lines.filter((l) => !source.includes(l));
        expect(missing, because(W, `patch-package applied ${name} to node_modules/${file} (run \`npx patch-package\`)`)).toEqual([]);
      }
    }
  });
});

describe("the patch's effect", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it("queries on a reserved connection whose backend died reject with CONNECTION_CLOSED instead of throwing from a timer", async () => {
    const uncaught: unknown[] = [];
    const record = (e: unknown) => void uncaught.push(e);
    process.on("uncaughtException", record);
    const closed: number[] = [];
    const sql = postgres(database.url, { max: 2, onnotice: () => {}, onclose: (id) => closed.push(id) });
    const killer = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const reserved = await sql.reserve();
      const [{ pid }] = (await reserved`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
      await killer`select pg_terminate_backend(${pid})`;
      expect(await eventually(() => closed.length > 0), "the reserved connection saw its backend go").toBe(true);
      for (const attempt of ["first", "second"]) {
        let outcome: string | undefined;
        reserved`select 1`.then(
          () => void (outcome = "answered"),
          (e: { code?: string }) => void (outcome = e.code ?? String(e)),
        );
        await eventually(() => outcome !== undefined || uncaught.length > 0, 300);
        expect(
          uncaught.map(String),
          because(W, `the ${attempt} query on the dead reserved connection does not throw from postgres.js's write timer`),
        ).toEqual([]);
        expect(outcome, because(W, `the ${attempt} query on the dead reserved connection settles with CONNECTION_CLOSED`)).toBe(
          "CONNECTION_CLOSED",
        );
      }
    } finally {
      process.off("uncaughtException", record);
      // Without a timeout end() would wait for the dead reserved connection forever.
      await Promise.all([sql.end({ timeout: 1 }), killer.end({ timeout: 1 })]);
    }
  });
});
