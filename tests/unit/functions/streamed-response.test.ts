// streamedResponse (a list streamed as NDJSON, docs/adr/0503): a refusal before the first piece is thrown
// (the app's error envelope answers it); an error after it aborts the body, so a reader sees a broken
// stream rather than a short one that ends cleanly.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../../functions/deps.ts";
import { streamedResponse } from "../../../functions/streamed-response.ts";

const warnings: string[] = [];

function appWith(run: (write: (chunk: string) => Promise<void>) => Promise<unknown>) {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("deps", { logger: { warn: (m: string) => warnings.push(m) } } as never);
    await next();
  });
  app.onError((e, c) => c.json({ error: e.message }, 422));
  app.get("/list", (c) => streamedResponse(c, { "Content-Type": "application/x-ndjson" }, run));
  return app;
}

describe("streamedResponse", () => {
  it("writes the pieces as they come and ends the body when the run ends", async () => {
    const res = await appWith(async (write) => {
      await write('{"id":1}\n');
      await write('{"id":2}\n');
    }).request("/list");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toBe('{"id":1}\n{"id":2}\n');
  });

  it("answers an empty body when nothing was written", async () => {
    const res = await appWith(async () => {}).request("/list");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("throws a refusal that comes before the first piece, for the error envelope", async () => {
    const res = await appWith(async () => {
      throw new Error("no such custom field");
    }).request("/list");
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: "no such custom field" });
  });

  it("aborts the body on an error after the first piece", async () => {
    const res = await appWith(async (write) => {
      await write('{"id":1}\n');
      throw new Error("the database went away");
    }).request("/list");
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect(warnings).toContain("streamed response aborted");
  });
});
