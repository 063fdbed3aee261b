import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { GIF, ICO, PNG, sized, SVG, upload } from "./support.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("assets: happy", () => {
  it("uploads a user icon under a fresh name and serves it inline", async () => {
    const res = await upload(a, "assets/user-icon", a.editor, GIF, "file", "application/octet-stream");
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ content_type: "image/gif", size: GIF.length });
    expect(body.url).toMatch(/^\/uploads\/user-icon\/icon-[0-9a-f]{32}\.gif$/);
    const served = await a.t.app.request(body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/gif");
    expect(served.headers.get("content-disposition")).toBeNull();
    const second = await (await upload(a, "assets/user-icon", a.editor, PNG)).json();
    expect(second.url).not.toBe(body.url);
  });

  it("favicon: 404 JSON before any upload, then served at /favicon.ico; a new one replaces it", async () => {
    const none = await a.t.app.request("/favicon.ico");
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({ error_code: "RESOURCE_NOT_FOUND", detail: "Favicon /favicon.ico was not found." });

    const ico = await upload(a, "assets/branding/favicon", a.admin, ICO, "file", "image/png");
    expect(ico.status).toBe(200);
    expect(await ico.json()).toEqual({ url: "/favicon.ico", content_type: "image/x-icon", size: ICO.length });
    const served = await a.t.app.request("/favicon.ico");
    expect(served.headers.get("content-type")).toBe("image/x-icon");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(ICO);

    expect((await upload(a, "assets/branding/favicon", a.admin, PNG)).status).toBe(200);
    const replaced = await a.t.app.request("/favicon.ico");
    expect(replaced.headers.get("content-type")).toBe("image/png");
    expect(replaced.headers.get("cache-control")).toBe("public, max-age=3600");
    expect((await a.t.app.request("/branding/favicon")).status).toBe(200);
    expect((await a.t.sql`select count(*)::int as n from uploads where kind = 'branding'`)[0]!.n).toBe(1);
    const audit = await a.t.sql`select action from audit_log where entity_type = 'upload' order by id`;
    expect(audit.length).toBeGreaterThanOrEqual(4);
  });
});

describe("assets: errors", () => {
  it("types by content (SVG, text, a GIF as favicon: 422) and sizes (413)", async () => {
    expect((await upload(a, "assets/user-icon", a.editor, SVG)).status).toBe(422);
    expect((await upload(a, "assets/user-icon", a.editor, new TextEncoder().encode("plain text"))).status).toBe(422);
    const big = await upload(a, "assets/user-icon", a.editor, sized(PNG, 512 * 1024 + 1));
    expect(big.status).toBe(413);
    expect((await big.json()).error_code).toBe("PAYLOAD_TOO_LARGE");
    expect((await upload(a, "assets/user-icon", a.editor, sized(PNG, 512 * 1024))).status).toBe(201);
    const gif = await upload(a, "assets/branding/favicon", a.admin, GIF);
    expect(gif.status).toBe(422);
    expect((await gif.json()).fields.file).toMatch(/PNG or ICO/);
    expect((await upload(a, "assets/branding/favicon", a.admin, sized(PNG, 256 * 1024 + 1))).status).toBe(413);
    expect((await upload(a, "assets/user-icon", a.editor, PNG, "icon")).status).toBe(422);
  });
});

describe("assets: security", () => {
  it("anonymous 401, viewer 403, only administrators set the favicon", async () => {
    expect((await upload(a, "assets/user-icon", undefined, PNG)).status).toBe(401);
    expect((await upload(a, "assets/user-icon", a.viewer, PNG)).status).toBe(403);
    expect((await upload(a, "assets/branding/favicon", a.editor, PNG)).status).toBe(403);
    expect((await upload(a, "assets/branding/favicon", a.viewer, PNG)).status).toBe(403);
  });
});
