// The certificates routes inside workerd: the X.509 work (@peculiar/x509 over WebCrypto) runs on the
// edge: a self-signed certificate is generated and an upload is checked there; letsencrypt answers 503
// (no ACME client on the edge) and activation says this process serves no HTTPS.
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { chainFor } from "../api/certificates/pki.ts";
import { buildBundle, type EdgeBundle, startWorker } from "./harness.ts";

const BASE = "http://edge.test";
const SETUP = "edge-certificates-setup-token";
let bundle: EdgeBundle;
let database: TestDatabase;
let mf: Miniflare;
let token: string;

const call = async (method: string, path: string, body?: unknown) => {
  const res = await mf.dispatchFetch(`${BASE}/api/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  } as never);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  const results = await Promise.allSettled([buildBundle().then((b) => (bundle = b)), createTestDatabase().then((d) => (database = d))]);
  for (const r of results) if (r.status === "rejected") throw r.reason;
  mf = startWorker(bundle, { bindings: { DATABASE_URL: database.url, LOG_LEVEL: "warn", SVC_SETUP_TOKEN: SETUP } });
  await mf.ready;
  const init = await mf.dispatchFetch(`${BASE}/api/v1/bootstrap/initialize`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com", password: "admin password for the edge", setup_token: SETUP }),
  } as never);
  expect(init.status).toBe(200);
  token = ((await init.json()) as { token: string }).token;
}, 180_000);

afterAll(async () => {
  await mf?.dispose();
  await database?.drop();
  await bundle?.remove();
});

describe("certificates on the edge", () => {
  it("generates a self-signed certificate and activates it (no HTTPS server here to reload)", async () => {
    const created = await call("POST", "certificates", { domain: "edge.example.test" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: "selfsigned", san: ["edge.example.test"] });
    const activated = await call("POST", `certificates/${created.body.id}/activate`);
    expect(activated.status).toBe(200);
    expect(activated.body).toMatchObject({ written: true, reloaded: false });
  });

  it("checks an upload: a valid chain is taken, a key that is not the leaf's is a 422", async () => {
    const { leaf, intermediate } = await chainFor("upload.edge.test");
    const other = await chainFor("upload.edge.test");
    const ok = await call("POST", "certificates", {
      domain: "upload.edge.test",
      type: "imported",
      cert_pem: `${leaf.pem}\n${intermediate.pem}`,
      key_pem: leaf.keyPem,
    });
    expect(ok.status).toBe(201);
    const bad = await call("POST", "certificates", {
      domain: "upload.edge.test",
      type: "imported",
      cert_pem: leaf.pem,
      key_pem: other.leaf.keyPem,
    });
    expect(bad.status).toBe(422);
    expect((bad.body.fields as Record<string, string>).key_pem).toMatch(/does not match/);
  });

  it("answers 503 for letsencrypt: ACME runs in the Node server only", async () => {
    const res = await call("POST", "certificates", { domain: "le.edge.test", type: "letsencrypt" });
    expect(res.status).toBe(503);
    expect(res.body.detail).toMatch(/ACME runs in the Node server only/);
  });
});
