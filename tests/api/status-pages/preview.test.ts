// GET /status-pages/{page_id}/preview (docs/adr/0460-status-page-console.md): the public page's HTML for
// those who manage it, drafts included, read by id under read:status_pages; framed only by this origin and
// never cached; 401 without a credential, 403 without the scope, 404 for an unknown id.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let draftId: number;
const EVIL = `<script>alert("x")</script>`;
beforeAll(async () => {
  a = await createActors();
  const m = await a.req("POST", "monitors", a.admin, { name: "nas-internal", check_type: "http", host: "nas.internal.lan" });
  const monitorId = (await m.json()).id;
  await a.t.sql`update monitors set status = 'down' where id = ${monitorId}`;
  const res = await a.req("POST", "status-pages", a.admin, {
    slug: "family",
    title: `Family ${EVIL}`,
    logo_url: "/branding/logo.png",
    sections: [{ name: "Home", items: [{ kind: "monitor", monitor_id: monitorId, public_name: "Photos" }] }],
  });
  expect(res.status).toBe(201);
  draftId = (await res.json()).id;
});
afterAll(async () => a?.t.close());

describe("status page preview", () => {
  it("renders a draft as the public page would, to any role, framable only by this origin", async () => {
    // The draft is not public...
    expect((await a.req("GET", "/status/family")).status).toBe(404);
    // ...but its preview is, to a viewer as to an administrator.
    for (const token of [a.viewer, a.admin]) {
      const res = await a.req("GET", `status-pages/${draftId}/preview`, token);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("img-src 'self'");
      expect(csp).not.toContain("script-src");
      const html = await res.text();
      expect(html).toContain("Family &lt;script&gt;");
      expect(html).not.toMatch(/<script/i);
      expect(html).toContain("Photos");
      expect(html).toContain("Major outage");
      expect(html).not.toContain("nas-internal");
      expect(html).not.toContain("nas.internal.lan");
    }
    // The public page of a published one is still never framed.
    await a.req("PATCH", `status-pages/${draftId}`, a.admin, { published: true });
    const pub = await a.req("GET", "/status/family");
    expect(pub.status).toBe(200);
    expect(pub.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(pub.headers.get("x-frame-options")).toBe("DENY");
  });

  it("needs a credential and read:status_pages, and answers 404 for an unknown page", async () => {
    expect((await a.req("GET", `status-pages/${draftId}/preview`)).status).toBe(401);
    const minted = await a.req("POST", "auth/api-token", a.admin, { label: "narrow", scopes: ["read:monitors"] });
    expect(minted.status).toBe(201);
    const narrow = (await minted.json()).token as string;
    const denied = await a.req("GET", `status-pages/${draftId}/preview`, narrow);
    expect(denied.status).toBe(403);
    expect((await denied.json()).detail).toContain("read:status_pages");
    const missing = await a.req("GET", "status-pages/999999/preview", a.admin);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error_code).toBe("RESOURCE_NOT_FOUND");
  });
});
