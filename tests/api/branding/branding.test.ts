import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { bytesOf, GIF, ICO, jpeg, png, sized, SVG, upload } from "./support.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const DEFAULTS = { app_name: "Circuit Breaker", primary_color: "#fe8019", accent_colors: ["#fabd2f", "#b8bb26"] };
const brandingRows = async () => (await a.t.sql`select value from app_settings where key = 'branding'`).map((r) => r.value);
const brandingUploads = async () =>
  (await a.t.sql`select name, content_type from uploads where kind = 'branding' order by name`).map((r) => `${r.name} ${r.content_type}`);
const auditCount = async () => (await a.t.sql`select count(*)::int as n from audit_log`)[0]!.n as number;

describe("branding: export and import", () => {
  it("exports the defaults, imports a document in part, and exports what was imported", async () => {
    const first = await a.req("GET", "branding/export", a.viewer);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual(DEFAULTS);

    const res = await a.req("POST", "branding/import", a.admin, { app_name: "  Home Lab Control  ", accent_colors: ["#112233"] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      app_name: "Home Lab Control",
      primary_color: "#fe8019",
      accent_colors: ["#112233"],
      favicon_path: null,
      login_logo_path: null,
      login_bg_path: null,
    });
    const exported = await (await a.req("GET", "branding/export", a.editor)).json();
    expect(exported).toEqual({ app_name: "Home Lab Control", primary_color: "#fe8019", accent_colors: ["#112233"] });

    // Round trip: the export imported again changes nothing and records no audit entry.
    const before = await auditCount();
    expect((await a.req("POST", "branding/import", a.admin, exported)).status).toBe(200);
    expect(await auditCount()).toBe(before);
    const audit = await a.t.sql`select diff from audit_log where action = 'branding.import'`;
    expect(audit).toHaveLength(1);
    expect(audit[0]!.diff).toEqual({
      before: { app_name: "Circuit Breaker", accent_colors: ["#fabd2f", "#b8bb26"] },
      after: { app_name: "Home Lab Control", accent_colors: ["#112233"] },
    });
  });

  it("422 names each bad field and changes nothing", async () => {
    const stored = await brandingRows();
    const cases: [unknown, string][] = [
      [{ primary_color: "orange" }, "primary_color"],
      [{ primary_color: "#12345" }, "primary_color"],
      [{ accent_colors: [] }, "accent_colors"],
      [{ accent_colors: ["#111111", "#222222", "#333333", "#444444", "#555555"] }, "accent_colors"],
      [{ accent_colors: ["#111111", "red"] }, "accent_colors.1"],
      [{ app_name: "   " }, "app_name"],
      [{ app_name: "x".repeat(101) }, "app_name"],
      [{ favicon_path: "/etc/passwd" }, "favicon_path"],
    ];
    for (const [body, field] of cases) {
      const res = await a.req("POST", "branding/import", a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const err = await res.json();
      expect(err.error_code).toBe("VALIDATION_ERROR");
      expect(JSON.stringify(err.detail)).toContain(field.split(".")[0]);
      expect(Object.keys(err.fields ?? {}).join(","), JSON.stringify(err)).toContain(field);
    }
    // A valid key beside a bad one is not written either (validated whole).
    expect((await a.req("POST", "branding/import", a.admin, { app_name: "Other", primary_color: "bad" })).status).toBe(422);
    expect(await brandingRows()).toEqual(stored);
  });

  it("a stored value that breaks its rule reads as the default", async () => {
    const [row] = await a.t.sql`select value from app_settings where key = 'branding'`;
    await a.t
      .sql`update app_settings set value = ${a.t.sql.json({ ...row!.value, primary_color: "javascript:alert(1)", accent_colors: "nope" })} where key = 'branding'`;
    expect(await (await a.req("GET", "branding/export", a.admin)).json()).toEqual({
      app_name: "Home Lab Control",
      primary_color: "#fe8019",
      accent_colors: DEFAULTS.accent_colors,
    });
    await a.t.sql`update app_settings set value = ${a.t.sql.json(row!.value)} where key = 'branding'`;
  });

  it("security: anonymous 401; import is for administrators (editor and viewer 403)", async () => {
    expect((await a.req("GET", "branding/export")).status).toBe(401);
    expect((await a.req("POST", "branding/import", undefined, { app_name: "X" })).status).toBe(401);
    expect((await a.req("POST", "branding/import", a.editor, { app_name: "X" })).status).toBe(403);
    expect((await a.req("POST", "branding/import", a.viewer, { app_name: "X" })).status).toBe(403);
    expect((await (await a.req("GET", "branding/export", a.viewer)).json()).app_name).toBe("Home Lab Control");
  });
});

describe("branding: login assets", () => {
  it("logo: a PNG sent with a .jpg name and image/jpeg type is stored as PNG, served, and replaced by a JPEG", async () => {
    const logo = png(64, 32);
    const form = new FormData();
    form.append("file", new Blob([logo as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }), "logo.jpg");
    const res = await a.t.app.request("/api/v1/branding/upload-login-logo", {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${a.admin}`, "x-test-peer": "10.5.5.5" },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).login_logo_path).toBe("/branding/login-logo.png");
    const served = await a.t.app.request("/branding/login-logo.png");
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(await bytesOf(served)).toEqual(logo);

    const again = await upload(a, "branding/upload-login-logo", a.admin, jpeg(40, 20));
    expect((await again.json()).login_logo_path).toBe("/branding/login-logo.jpg");
    expect(await brandingUploads()).toEqual(["login-logo.jpg image/jpeg"]);
    expect((await a.t.app.request("/branding/login-logo.png")).status).toBe(404);
  });

  it("background: PNG or JPEG with a readable header, scaled down to fit 1920x1080, its stored size audited", async () => {
    const big = new Uint8Array(
      await sharp({ create: { width: 3840, height: 2400, channels: 3, background: "#285577" } })
        .jpeg()
        .toBuffer(),
    );
    const res = await upload(a, "branding/upload-login-bg", a.admin, big);
    expect(res.status).toBe(200);
    expect((await res.json()).login_bg_path).toBe("/branding/login-bg.jpg");
    const [entry] = await a.t.sql`select diff from audit_log where action = 'branding.asset.upload' and entity_id = 'login-bg'`;
    expect(entry!.diff).toEqual({ after: { name: "login-bg.jpg", width: 1728, height: 1080 } });
    const served = await a.t.sql`select bytes from uploads where kind = 'branding' and name = 'login-bg.jpg'`;
    expect(await sharp(served[0]!.bytes).metadata()).toMatchObject({ format: "jpeg", width: 1728, height: 1080 });
    // Over the size, a header that announces an image nobody can decode is no image: 422.
    expect((await upload(a, "branding/upload-login-bg", a.admin, jpeg(4000, 3000))).status).toBe(422);
    // A JPEG whose tables (DHT, C4: inside the SOF marker range but not a frame) come before the frame.
    const dht = [0xff, 0xc4, 0, 5, 0, 0, 0];
    const withTables = jpeg(800, 600);
    const tabled = new Uint8Array([...withTables.subarray(0, 20), ...dht, ...withTables.subarray(20)]);
    expect((await upload(a, "branding/upload-login-bg", a.admin, tabled)).status).toBe(200);
    const [tabledEntry] = await a.t
      .sql`select diff from audit_log where action = 'branding.asset.upload' and entity_id = 'login-bg' order by id desc limit 1`;
    expect(tabledEntry!.diff.after).toMatchObject({ width: 800, height: 600 });
    expect((await upload(a, "branding/upload-login-bg", a.admin, png(1920, 1080))).status).toBe(200);
    expect(await brandingUploads()).toEqual(["login-bg.png image/png", "login-logo.jpg image/jpeg"]);
  });

  it("refuses by content (SVG, text, GIF, a PNG signature without a header: 422) and by size (413), changing nothing", async () => {
    const before = await brandingUploads();
    for (const [path, bytes] of [
      ["branding/upload-login-logo", SVG],
      ["branding/upload-login-logo", new TextEncoder().encode("not an image at all")],
      ["branding/upload-login-logo", GIF],
      ["branding/upload-login-bg", ICO],
      ["branding/upload-login-bg", png(0, 0)],
      ["branding/upload-login-bg", png(0, 0).subarray(0, 16)],
    ] as const) {
      const res = await upload(a, path, a.admin, bytes, "file", "image/png");
      expect(res.status, `${path} ${bytes.length}`).toBe(422);
      expect((await res.json()).fields.file).toMatch(/PNG or JPEG/);
    }
    expect((await upload(a, "branding/upload-login-logo", a.admin, png(1, 1), "image")).status).toBe(422);
    const big = await upload(a, "branding/upload-login-logo", a.admin, sized(png(10, 10), 2 * 1024 * 1024 + 1));
    expect(big.status).toBe(413);
    expect((await upload(a, "branding/upload-login-bg", a.admin, sized(jpeg(10, 10), 5 * 1024 * 1024 + 1))).status).toBe(413);
    expect(await brandingUploads()).toEqual(before);
  });

  it("DELETE removes one asset type (the favicon too), is idempotent, and refuses an unknown type with 422", async () => {
    expect((await upload(a, "assets/branding/favicon", a.admin, ICO)).status).toBe(200);
    expect((await (await a.req("GET", "branding/export", a.admin)).json()).app_name).toBe("Home Lab Control");
    const bad = await a.req("DELETE", "branding/logo", a.admin);
    expect(bad.status).toBe(422);
    expect((await bad.json()).fields.asset_type).toMatch(/favicon, login-logo, login-bg/);
    expect(await brandingUploads()).toEqual(["favicon image/x-icon", "login-bg.png image/png", "login-logo.jpg image/jpeg"]);

    const res = await a.req("DELETE", "branding/login-bg", a.admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      favicon_path: "/favicon.ico",
      login_logo_path: "/branding/login-logo.jpg",
      login_bg_path: null,
    });
    expect((await a.req("DELETE", "branding/login-bg", a.admin)).status).toBe(200);
    expect((await (await a.req("DELETE", "branding/favicon", a.admin)).json()).favicon_path).toBeNull();
    expect((await a.t.app.request("/favicon.ico")).status).toBe(404);
    expect(await brandingUploads()).toEqual(["login-logo.jpg image/jpeg"]);
    expect((await a.t.sql`select count(*)::int as n from audit_log where action = 'branding.asset.delete'`)[0]!.n).toBe(2);
  });

  it("GET /branding answers the BrandingConfig with the stored assets' paths to any reader; anonymous 401", async () => {
    const res = await a.req("GET", "branding", a.viewer);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      app_name: "Home Lab Control",
      primary_color: "#fe8019",
      accent_colors: ["#112233"],
      favicon_path: null,
      login_logo_path: "/branding/login-logo.jpg",
      login_bg_path: null,
    });
    expect((await a.req("GET", "branding", undefined)).status).toBe(401);
  });

  it("security: anonymous 401, editor and viewer 403 on every write, nothing stored", async () => {
    const before = await brandingUploads();
    for (const token of [undefined, a.editor, a.viewer]) {
      const want = token ? 403 : 401;
      expect((await upload(a, "branding/upload-login-logo", token, png(2, 2))).status).toBe(want);
      expect((await upload(a, "branding/upload-login-bg", token, png(2, 2))).status).toBe(want);
      expect((await a.req("DELETE", "branding/login-logo", token)).status).toBe(want);
    }
    expect(await brandingUploads()).toEqual(before);
  });
});

describe("branding: manifest.json", () => {
  it("is public, application/manifest+json, built from the settings and assets, revalidated by ETag", async () => {
    const res = await a.t.app.request("/api/v1/branding/manifest.json", { headers: { "x-test-peer": "10.6.6.6" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    expect(res.headers.get("cache-control")).toMatch(/public/);
    expect(await res.json()).toEqual({
      name: "Home Lab Control",
      short_name: "Home Lab Con",
      icons: [
        { src: "/icons/app-192.png", sizes: "192x192", type: "image/png", purpose: "any maskable" },
        { src: "/icons/app-512.png", sizes: "512x512", type: "image/png", purpose: "any maskable" },
        { src: "/branding/login-logo.jpg", sizes: "any", type: "image/jpeg" },
      ],
      theme_color: "#fe8019",
      background_color: "#282828",
      display: "standalone",
      start_url: "/",
    });
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const cached = await a.t.app.request("/api/v1/branding/manifest.json", {
      headers: { "if-none-match": etag, "x-test-peer": "10.6.6.7" },
    });
    expect(cached.status).toBe(304);

    expect((await upload(a, "assets/branding/favicon", a.admin, png(32, 32))).status).toBe(200);
    expect((await a.req("POST", "branding/import", a.admin, { app_name: "Lab", primary_color: "#00AA11" })).status).toBe(200);
    const changed = await a.t.app.request("/api/v1/branding/manifest.json", {
      headers: { "if-none-match": etag, "x-test-peer": "10.6.6.8" },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    const body = await changed.json();
    expect(body).toMatchObject({ name: "Lab", short_name: "Lab", theme_color: "#00AA11" });
    const sha = createHash("sha256").update(png(32, 32)).digest("hex").slice(0, 16);
    expect(body.icons.map((i: { src: string }) => i.src)).toEqual([
      `/branding/icon-192.png?v=${sha}`,
      `/branding/icon-512.png?v=${sha}`,
      "/favicon.ico",
      "/branding/login-logo.jpg",
    ]);
    // That favicon is a PNG header only: nothing to draw, so its icons are a plain 404.
    expect((await a.t.app.request("/branding/icon-192.png", { headers: { "x-test-peer": "10.6.6.9" } })).status).toBe(404);
  });

  it("the console's default icons are real 192 and 512 px PNGs, full-bleed (maskable) from the committed SVG", async () => {
    for (const size of [192, 512]) {
      const file = readFileSync(new URL(`../../../web/public/icons/app-${size}.png`, import.meta.url));
      const meta = await sharp(file).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["png", size, size]);
      // Maskable: the corners (which a circular mask cuts away) are background, not transparent.
      const { data } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      expect(data[3]).toBe(255);
    }
  });

  it("an uploaded PNG favicon becomes the 192 and 512 px icons, centred in the safe zone", async () => {
    const red = await sharp({ create: { width: 64, height: 64, channels: 4, background: "#ff0000" } })
      .png()
      .toBuffer();
    expect((await upload(a, "assets/branding/favicon", a.admin, new Uint8Array(red))).status).toBe(200);
    const body = await (await a.t.app.request("/api/v1/branding/manifest.json", { headers: { "x-test-peer": "10.6.7.1" } })).json();
    const sized = body.icons.filter((i: { sizes: string }) => i.sizes !== "any");
    expect(sized.map((i: { sizes: string; purpose: string }) => [i.sizes, i.purpose])).toEqual([
      ["192x192", "any maskable"],
      ["512x512", "any maskable"],
    ]);
    for (const [i, size] of [
      [0, 192],
      [1, 512],
    ] as const) {
      const res = await a.t.app.request(sized[i].src, { headers: { "x-test-peer": `10.6.7.${2 + i}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      const bytes = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["png", size, size]);
      const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 3)];
      expect(at(size / 2, size / 2)).toEqual([255, 0, 0]);
      // The favicon covers 56% of the side, inside the safe circle (40% radius); the corner is the background.
      expect(at(2, 2)).toEqual([0x28, 0x28, 0x28]);
      expect(at(Math.round(size * 0.2), Math.round(size / 2))).toEqual([0x28, 0x28, 0x28]);
    }
  });
});
