// The yardstick of the throughput bench: bare Hono + @hono/node-server + postgres.js serving the list
// page of 100 services (the page's SELECT and its COUNT, answered as the product's envelope), with no
// middleware, no validation and no presenter. Started as its own process like the product (harness
// startServer), on the product's own pool constructor: same pool size and connection parameters.
// Env: DATABASE_URL, DB_POOL_MAX, PORT, HOST.
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { postgresClient } from "../../runtime/database.ts";

const sql = postgresClient(process.env.DATABASE_URL!, Number(process.env.DB_POOL_MAX ?? "10"));
const app = new Hono();

app.get("/api/v1/readyz", (c) => c.text("ready"));
// Only the benches' two pages: the filtered one (environment=..., sort=name, direction=desc) and the
// cheap one of issue 37 (no filter, sort=name, direction=asc); the product validates and maps them.
app.get("/api/v1/services", async (c) => {
  const limit = Math.min(100, Number(c.req.query("limit") ?? "25"));
  const offset = Number(c.req.query("offset") ?? "0");
  const environment = c.req.query("environment");
  const [items, [count]] =
    environment === undefined
      ? await Promise.all([
          sql`select * from services order by name, id limit ${limit} offset ${offset}`,
          sql`select count(*)::int as n from services`,
        ])
      : await Promise.all([
          sql`select * from services where environment = ${environment} order by name desc, id desc limit ${limit} offset ${offset}`,
          sql`select count(*)::int as n from services where environment = ${environment}`,
        ]);
  const direction = environment === undefined ? "asc" : "desc";
  return c.json({ items, total: count?.n ?? 0, limit, offset, sort: "name", direction });
});

serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: process.env.HOST ?? "127.0.0.1" });
// A clean exit on SIGTERM (the harness's stop), so the pool's sessions end and --cpu-prof can write.
process.once("SIGTERM", () => void sql.end({ timeout: 1 }).finally(() => process.exit(0)));
