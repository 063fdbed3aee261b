// Issue 34: `lab list` of more rows than one page, the real CLI (node bin/lab.mjs) against the real
// product: the list streams as NDJSON (docs/adr/0503) and every row arrives once, in order, in the
// table, json, yaml, name and --jq outputs; --limit stops early; a stream the server cuts off is exit
// code 5, never a short list. Timings are `npm run bench -- cli`'s.
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { jsonBody, killAll, type Product, REPO_ROOT, SETUP_TOKEN, startProduct } from "./helpers.ts";

const HOST = "127.0.40.1";
const ROWS = 750;
const names = Array.from({ length: ROWS }, (_, i) => `stream-${String(i + 1).padStart(4, "0")}`);
const home = mkdtempSync(join(tmpdir(), "lab-cli-list-"));
let db: TestDatabase;
let server: Product;
let env: Record<string, string>;

function lab(args: string[], extra: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(REPO_ROOT, "bin/lab.mjs"), ...args],
      {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: home,
          XDG_CONFIG_HOME: join(home, "config"),
          XDG_CACHE_HOME: join(home, "cache"),
          ...env,
          ...extra,
        },
        timeout: 60_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`lab ${args.join(" ")} exited ${(err as { code?: number }).code}: ${stderr}`));
        // One request per list: page after page, these lists would meet the read rate limit and wait.
        else if (stderr.includes("rate limited")) reject(new Error(`lab ${args.join(" ")} waited for the rate limit:\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startProduct({ DATABASE_URL: db.url, HOST, SVC_SETUP_TOKEN: SETUP_TOKEN }, 120_000);
  const init = await server.fetch(
    "/api/v1/bootstrap/initialize",
    jsonBody({ email: "list@example.com", password: "a long list admin password", setup_token: SETUP_TOKEN }),
  );
  expect(init.status).toBe(200);
  env = { LAB_URL: server.url, LAB_TOKEN: (await init.json()).token };
  // Inserted in reverse, so that the list's order (by name) is not the insertion order.
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    await sql`insert into hardware (name, role) select n, case when right(n, 1) in ('0', '5') then 'five' else 'server' end from unnest(${[...names].reverse()}::text[]) as n`;
  } finally {
    await sql.end();
  }
}, 300_000);

afterAll(async () => {
  await killAll();
  await db?.drop();
  rmSync(home, { recursive: true, force: true });
});

describe("lab list, streamed", () => {
  it("prints every row once, in order, as a table fitted to its first rows", async () => {
    const lines = (await lab(["list", "hardware", "-q", "stream-", "--sort", "name"])).trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+NAME\s+/);
    expect(lines.length).toBe(ROWS + 1);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[1])).toEqual(names);
  });

  it("prints valid JSON, YAML, names and --jq selections of every row, filtered and sorted as asked", async () => {
    const json = JSON.parse(await lab(["list", "hardware", "-q", "stream-", "--sort", "name", "--desc", "-o", "json"])) as {
      name: string;
    }[];
    expect(json.map((h) => h.name)).toEqual([...names].reverse());
    const yaml = parse(await lab(["list", "hardware", "-q", "stream-", "--sort", "name", "-o", "yaml"])) as { name: string }[];
    expect(yaml.map((h) => h.name)).toEqual(names);
    const fives = names.filter((n) => n.endsWith("0") || n.endsWith("5"));
    expect(await lab(["list", "hardware", "--filter", "role=five", "--sort", "name", "-o", "name"])).toBe(`${fives.join("\n")}\n`);
    expect(await lab(["list", "hardware", "-q", "stream-", "--sort", "name", "--jq", ".name"])).toBe(`${names.join("\n")}\n`);
  });

  it("stops after --limit rows", async () => {
    expect(await lab(["list", "hardware", "-q", "stream-", "--sort", "name", "--limit", "123", "-o", "name"])).toBe(
      `${names.slice(0, 123).join("\n")}\n`,
    );
    expect(JSON.parse(await lab(["list", "hardware", "-q", "stream-", "--limit", "1", "-o", "json"])).length).toBe(1);
  });
});

describe("lab list, cut off", () => {
  it("exits 5 when the server breaks the stream off after some rows", async () => {
    // A server with one streamed kind whose list sends two rows, then drops the connection mid-body.
    const doc = {
      paths: {
        "/api/v1/widgets": {
          get: {
            responses: {
              200: {
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: {
                        items: {
                          type: "array",
                          items: { type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } },
                        },
                        total: { type: "integer" },
                      },
                    },
                  },
                  "application/x-ndjson": { schema: { type: "object" } },
                },
              },
            },
          },
        },
      },
    };
    const fake = createServer((req, res) => {
      if (req.url === "/api/openapi.json") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc));
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write('{"id":1,"name":"w1"}\n{"id":2,"name":"w2"}\n', () => setTimeout(() => res.socket?.destroy(), 50));
    });
    await new Promise<void>((r) => fake.listen(0, "127.0.40.5", r));
    const { port } = fake.address() as { port: number };
    try {
      const failed = await lab(["list", "widgets", "-o", "name"], { LAB_URL: `http://127.0.40.5:${port}`, LAB_TOKEN: "svc_x_y" }).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(failed).toMatch(/ exited 5: /);
      expect(failed).toMatch(/lab: the list from http:\/\/127\.0\.40\.5:\d+ broke off after 2 rows/);
    } finally {
      await new Promise((r) => fake.close(r));
    }
  });
});
