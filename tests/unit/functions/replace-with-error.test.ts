// replaceWithError (used when a read's answer is thrown away for a 429): the envelope takes the answer's
// place whole, none of its headers survive, and a streaming body behind it is cancelled.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { replaceWithError } from "../../../functions/errors.ts";
import { ApiError } from "../../../shared/errors.ts";

describe("replaceWithError", () => {
  it("replaces the answer and its headers, and cancels a streaming body", async () => {
    let cancelled = false;
    const app = new Hono();
    app.use("*", async (c, next) => {
      await next();
      replaceWithError(
        c,
        new ApiError("RATE_LIMITED", "Too many requests; retry after 3 seconds.", { retry_after: 3 }, { "Retry-After": "3" }),
      );
    });
    app.get("/feed", () => {
      const body = new ReadableStream({ pull: () => new Promise(() => {}), cancel: () => void (cancelled = true) });
      return new Response(body, { headers: { "content-type": "text/event-stream", etag: 'W/"7"' } });
    });
    const res = await app.request("/feed");
    expect(res.status).toBe(429);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("etag")).toBeNull();
    expect(res.headers.get("retry-after")).toBe("3");
    expect(await res.json()).toEqual({ error_code: "RATE_LIMITED", detail: "Too many requests; retry after 3 seconds.", retry_after: 3 });
    await new Promise((r) => setTimeout(r, 0));
    expect(cancelled).toBe(true);
  });
});
