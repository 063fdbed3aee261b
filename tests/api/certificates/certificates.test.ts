// /certificates: self-signed create/list/detail with no key anywhere in an answer, upload validation
// (garbage, a key that is not the leaf's, expired, a chain out of order, a valid chain from a CA made
// here), activation switching the single active one, renewal, the delete rules and the viewer's 403.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { chainFor, issue } from "./pki.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
}, 60_000);
afterAll(async () => a?.t.close());

const post = (body: unknown, token = a.admin) => a.req("POST", "certificates", token, body);
const count = async () => Number((await a.t.sql<{ n: number }[]>`select count(*)::int as n from certificates`)[0]!.n);

async function expect422(res: Response, field: string, pattern: RegExp) {
  expect(res.status).toBe(422);
  const body = await res.json();
  expect(body.error_code).toBe("VALIDATION_ERROR");
  expect(body.fields[field]).toMatch(pattern);
}

describe("self-signed certificates", () => {
  let id: number;

  it("creates a P-256 certificate for the domain: 201, CertificateRead, no key", async () => {
    const res = await post({ domain: "CP.Example.test" });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toMatch(/PRIVATE KEY|key_pem|vault:v1/);
    const body = JSON.parse(text);
    expect(body).toMatchObject({
      domain: "cp.example.test",
      type: "selfsigned",
      auto_renew: true,
      is_active: false,
      acme_challenge: null,
      acme_staging: false,
      san: ["cp.example.test"],
    });
    const days = (Date.parse(body.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(366);
    id = body.id;
  });

  it("stores the key sealed by the vault, opening only under its row's context", async () => {
    const [row] = await a.t.sql<{ key_pem: string }[]>`select key_pem from certificates where id = ${id}`;
    expect(row!.key_pem).toMatch(/^vault:v1:/);
    const key = await a.t.runtime.deps.vault.decrypt(row!.key_pem, `certificates.key_pem:${id}`);
    expect(key).toContain("BEGIN PRIVATE KEY");
    await expect(a.t.runtime.deps.vault.decrypt(row!.key_pem, `certificates.key_pem:${id + 1}`)).rejects.toThrow();
  });

  it("detail adds cert_pem, a certificate naming the domain with the stored fingerprint; never the key", async () => {
    const res = await a.req("GET", `certificates/${id}`, a.admin);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toMatch(/PRIVATE KEY|key_pem/);
    const body = JSON.parse(text);
    const cert = new x509.X509Certificate(body.cert_pem);
    expect(cert.publicKey.algorithm).toMatchObject({ name: "ECDSA", namedCurve: "P-256" });
    expect(cert.getExtension(x509.SubjectAlternativeNameExtension)!.names.items.map((n) => n.value)).toEqual(["cp.example.test"]);
    const fp = [...new Uint8Array(await cert.getThumbprint("SHA-256"))].map((b) => b.toString(16).padStart(2, "0")).join("");
    expect(body.fingerprint_sha256).toBe(fp);
    expect(await cert.verify({ signatureOnly: true })).toBe(true);
  });

  it("an IP address gets a SAN iPAddress", async () => {
    const res = await post({ domain: "127.0.0.71", auto_renew: false });
    expect(res.status).toBe(201);
    const body = await (await a.req("GET", `certificates/${(await res.json()).id}`, a.admin)).json();
    const names = new x509.X509Certificate(body.cert_pem).getExtension(x509.SubjectAlternativeNameExtension)!.names.items;
    expect(names.map((n) => [n.type, n.value])).toEqual([["ip", "127.0.0.71"]]);
  });

  it("lists in the envelope, sorted by expiry, filtered by type and domain, with no key", async () => {
    const res = await a.req("GET", "certificates?type=selfsigned&domain=cp.example.test", a.admin);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toMatch(/PRIVATE KEY|key_pem|cert_pem/);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ total: 1, limit: 25, offset: 0, sort: "expires_at", direction: "asc" });
    expect(body.items[0].id).toBe(id);
  });

  it("refuses cert_pem on a self-signed create and a wildcard self-signed name, writing nothing", async () => {
    const before = await count();
    await expect422(await post({ domain: "a.test", cert_pem: "x" }), "cert_pem", /only taken for type imported/);
    await expect422(await post({ domain: "*.a.test" }), "domain", /wildcard/);
    await expect422(await post({ domain: "bad domain!" }), "domain", /DNS name/);
    expect(await count()).toBe(before);
  });

  it("404 for an unknown certificate", async () => {
    const res = await a.req("GET", "certificates/999999", a.admin);
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe("Certificate 999999 was not found.");
  });
});

describe("imported certificates", () => {
  it("accepts a valid chain from a CA made here: expiry read from the leaf, chain stored leaf first", async () => {
    const { leaf, intermediate } = await chainFor("shop.example.test", { days: 60 });
    // A key file that also holds the certificate (as some tools write it): only the key block is kept.
    const res = await post({
      domain: "shop.example.test",
      type: "imported",
      cert_pem: `${leaf.pem}\n${intermediate.pem}`,
      key_pem: `${leaf.pem}\n${leaf.keyPem}`,
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    const [stored] = await a.t.sql<{ key_pem: string }[]>`select key_pem from certificates where id = ${body.id}`;
    const key = await a.t.runtime.deps.vault.decrypt(stored!.key_pem, `certificates.key_pem:${body.id}`);
    expect(key.trim()).toBe(leaf.keyPem.trim());
    expect(body).toMatchObject({ type: "imported", issuer: "CN=Test Intermediate CA", subject: "CN=shop.example.test" });
    expect(body.expires_at).toBe(leaf.cert.notAfter.toISOString());
    const detail = await (await a.req("GET", `certificates/${body.id}`, a.admin)).json();
    expect(detail.cert_pem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(new x509.X509Certificate(detail.cert_pem).subject).toBe("CN=shop.example.test");
  });

  it("accepts a wildcard certificate for a name it covers", async () => {
    const { leaf } = await chainFor("*.wild.test", { san: ["*.wild.test"] });
    expect((await post({ domain: "api.wild.test", type: "imported", cert_pem: leaf.pem, key_pem: leaf.keyPem })).status).toBe(201);
  });

  it("refuses every bad upload with a 422 naming what is wrong, writing nothing", async () => {
    const before = await count();
    const { root, intermediate, leaf } = await chainFor("bad.example.test");
    const other = await issue({ cn: "other", san: ["bad.example.test"] });
    const expired = await chainFor("old.example.test", { from: new Date(Date.now() - 100 * 86_400_000), days: 30 });
    const imported = (cert_pem: string, key_pem: string, domain = "bad.example.test") =>
      post({ domain, type: "imported", cert_pem, key_pem });

    await expect422(await post({ domain: "bad.example.test", type: "imported", key_pem: leaf.keyPem }), "cert_pem", /required/);
    await expect422(await post({ domain: "bad.example.test", type: "imported", cert_pem: leaf.pem }), "key_pem", /required/);
    await expect422(await imported("hello, not a certificate", leaf.keyPem), "cert_pem", /Not a PEM certificate/);
    await expect422(
      await imported("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----", leaf.keyPem),
      "cert_pem",
      /does not parse/,
    );
    await expect422(await imported(leaf.pem, "garbage"), "key_pem", /Not a PEM private key/);
    await expect422(await imported(leaf.pem, other.keyPem), "key_pem", /does not match the certificate/);
    await expect422(await imported(expired.leaf.pem, expired.leaf.keyPem, "old.example.test"), "cert_pem", /expired on/);
    await expect422(await imported(`${intermediate.pem}\n${leaf.pem}`, leaf.keyPem), "cert_pem", /not in order/);
    await expect422(await imported(`${leaf.pem}\n${root.pem}`, leaf.keyPem), "cert_pem", /not in order/);
    await expect422(
      await imported(leaf.pem, leaf.keyPem, "elsewhere.test"),
      "domain",
      /does not name elsewhere\.test: .*bad\.example\.test/,
    );
    const sec1 = leaf.keyPem.replace(/PRIVATE KEY/g, "EC PRIVATE KEY");
    await expect422(await imported(leaf.pem, sec1), "key_pem", /convert it to PKCS#8/);
    expect(await count()).toBe(before);
  });

  it("PUT replaces an imported certificate's chain (checked against the stored key) and sets auto_renew", async () => {
    const first = await chainFor("swap.example.test");
    const created = await (
      await post({ domain: "swap.example.test", type: "imported", cert_pem: first.leaf.pem, key_pem: first.leaf.keyPem })
    ).json();
    // A new leaf for the same key, from another CA: accepted with the stored key.
    const ca = await issue({ cn: "Second CA", ca: true });
    const reissued = await x509.X509CertificateGenerator.create({
      serialNumber: "0abc",
      subject: "CN=swap.example.test",
      issuer: ca.cert.subject,
      notBefore: new Date(Date.now() - 1000),
      notAfter: new Date(Date.now() + 200 * 86_400_000),
      publicKey: first.leaf.keys.publicKey,
      signingKey: ca.keys.privateKey,
      signingAlgorithm: { name: "ECDSA", hash: "SHA-256" },
      extensions: [new x509.SubjectAlternativeNameExtension([{ type: "dns", value: "swap.example.test" }])],
    });
    const res = await a.req("PUT", `certificates/${created.id}`, a.admin, { cert_pem: reissued.toString("pem"), auto_renew: false });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ auto_renew: false, issuer: "CN=Second CA" });
    expect(body.expires_at).toBe(reissued.notAfter.toISOString());
    // A certificate for another key is refused against the stored key, and nothing changes.
    const stranger = await issue({ cn: "swap", san: ["swap.example.test"] });
    await expect422(await a.req("PUT", `certificates/${created.id}`, a.admin, { cert_pem: stranger.pem }), "key_pem", /does not match/);
    expect((await (await a.req("GET", `certificates/${created.id}`, a.admin)).json()).issuer).toBe("CN=Second CA");
  });

  it("PUT refuses an upload onto a self-signed certificate", async () => {
    const created = await (await post({ domain: "ss.example.test" })).json();
    const { leaf } = await chainFor("ss.example.test");
    await expect422(
      await a.req("PUT", `certificates/${created.id}`, a.admin, { cert_pem: leaf.pem, key_pem: leaf.keyPem }),
      "cert_pem",
      /renew/,
    );
  });
});

describe("activate, renew, delete", () => {
  it("activate switches the single active certificate and answers {certificate, written, reloaded, detail}", async () => {
    const one = await (await post({ domain: "one.example.test" })).json();
    const two = await (await post({ domain: "two.example.test" })).json();
    const r1 = await a.req("POST", `certificates/${one.id}/activate`, a.admin);
    expect(r1.status).toBe(200);
    const b1 = await r1.json();
    // No HTTPS server in this test process: recorded, not reloaded, and the answer says why.
    expect(b1).toMatchObject({ certificate: { id: one.id, is_active: true }, written: true, reloaded: false });
    expect(b1.detail).toMatch(/does not serve HTTPS/);
    expect((await (await a.req("POST", `certificates/${two.id}/activate`, a.admin)).json()).certificate.is_active).toBe(true);
    const active = await a.t.sql<{ id: number }[]>`select id from certificates where is_active`;
    expect(active.map((r) => r.id)).toEqual([two.id]);
    const audit = await a.t.sql<
      { action: string; entity_id: string }[]
    >`select action, entity_id from audit_log where action = 'certificate.activate' order by id`;
    expect(audit.map((r) => r.entity_id)).toEqual([String(one.id), String(two.id)]);
  });

  it("concurrent activations of different certificates both answer 200 and leave exactly one active", async () => {
    const ids = await Promise.all(
      ["c1", "c2", "c3"].map(async (n) => (await (await post({ domain: `${n}.example.test` })).json()).id as number),
    );
    const answers = await Promise.all(ids.map((id) => a.req("POST", `certificates/${id}/activate`, a.admin)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const active = await a.t.sql<{ id: number }[]>`select id from certificates where is_active`;
    expect(active).toHaveLength(1);
    expect(ids).toContain(active[0]!.id);
  });

  it("refuses to activate an expired certificate (422), leaving the active one", async () => {
    const old = await (await post({ domain: "expired.example.test" })).json();
    await a.t.sql`update certificates set expires_at = now() - interval '1 day' where id = ${old.id}`;
    const [before] = await a.t.sql<{ id: number }[]>`select id from certificates where is_active`;
    const res = await a.req("POST", `certificates/${old.id}/activate`, a.admin);
    expect(res.status).toBe(422);
    expect((await res.json()).fields.cert_id).toMatch(/expired on .*Renew it/);
    const [after] = await a.t.sql<{ id: number }[]>`select id from certificates where is_active`;
    expect(after!.id).toBe(before!.id);
  });

  it("reloads through deps.tls when this process serves HTTPS; a failing reload is 200 reloaded=false, audited partial", async () => {
    const cert = await (await post({ domain: "reload.example.test" })).json();
    const seen: string[] = [];
    a.t.runtime.deps.tls = { reload: async (certPem, keyPem) => (seen.push(certPem, keyPem), true) };
    try {
      const ok = await (await a.req("POST", `certificates/${cert.id}/activate`, a.admin)).json();
      expect(ok).toMatchObject({ reloaded: true, written: true });
      expect(seen[0]).toContain("BEGIN CERTIFICATE");
      expect(seen[1]).toContain("BEGIN PRIVATE KEY");
      a.t.runtime.deps.tls = { reload: async () => false };
      const partial = await a.req("POST", `certificates/${cert.id}/activate`, a.admin);
      expect(partial.status).toBe(200);
      expect(await partial.json()).toMatchObject({ reloaded: false, written: true });
      const [last] = await a.t.sql<
        { diff: string }[]
      >`select diff::text as diff from audit_log where action = 'certificate.activate' order by id desc limit 1`;
      expect(last!.diff).toContain('"outcome": "partial"');
    } finally {
      delete a.t.runtime.deps.tls;
    }
  });

  it("replacing the active imported certificate's material through PUT presents the new one", async () => {
    const first = await chainFor("live.example.test");
    const cert = await (
      await post({ domain: "live.example.test", type: "imported", cert_pem: first.leaf.pem, key_pem: first.leaf.keyPem })
    ).json();
    expect((await a.req("POST", `certificates/${cert.id}/activate`, a.admin)).status).toBe(200);
    const next = await chainFor("live.example.test");
    const seen: string[] = [];
    a.t.runtime.deps.tls = { reload: async (certPem) => (seen.push(certPem), true) };
    try {
      const res = await a.req("PUT", `certificates/${cert.id}`, a.admin, { cert_pem: next.leaf.pem, key_pem: next.leaf.keyPem });
      expect(res.status).toBe(200);
      expect(seen).toHaveLength(1);
      expect(new x509.X509Certificate(seen[0]!).serialNumber).toBe(next.leaf.cert.serialNumber);
    } finally {
      delete a.t.runtime.deps.tls;
    }
  });

  it("renew gives a self-signed certificate a new key and certificate; imported answers 422", async () => {
    const cert = await (await post({ domain: "renew.example.test" })).json();
    const [before] = await a.t.sql<
      { key_pem: string; fingerprint_sha256: string }[]
    >`select key_pem, fingerprint_sha256 from certificates where id = ${cert.id}`;
    const res = await a.req("POST", `certificates/${cert.id}/renew`, a.admin);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.fingerprint_sha256).not.toBe(before!.fingerprint_sha256);
    expect(body.last_renewed_at).not.toBeNull();
    const [after] = await a.t.sql<{ key_pem: string }[]>`select key_pem from certificates where id = ${cert.id}`;
    const vault = a.t.runtime.deps.vault;
    expect(await vault.decrypt(after!.key_pem, `certificates.key_pem:${cert.id}`)).not.toBe(
      await vault.decrypt(before!.key_pem, `certificates.key_pem:${cert.id}`),
    );

    const { leaf } = await chainFor("imp.example.test");
    const imported = await (await post({ domain: "imp.example.test", type: "imported", cert_pem: leaf.pem, key_pem: leaf.keyPem })).json();
    const refused = await a.req("POST", `certificates/${imported.id}/renew`, a.admin);
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await refused.json())).toMatch(/cannot be renewed here.*Upload its successor/);
  });

  it("letsencrypt without an ACME client answers 503 and writes nothing", async () => {
    const acme = a.t.runtime.deps.acme;
    delete a.t.runtime.deps.acme;
    try {
      const before = await count();
      const res = await post({ domain: "le.example.test", type: "letsencrypt" });
      expect(res.status).toBe(503);
      expect((await res.json()).detail).toMatch(/ACME runs in the Node server only/);
      expect(await count()).toBe(before);
    } finally {
      if (acme) a.t.runtime.deps.acme = acme;
    }
  });

  it("letsencrypt stores what deps.acme issued with its challenge and staging flag; renew orders again; a failed order is kept in renew_error", async () => {
    const acme = a.t.runtime.deps.acme;
    const orders: unknown[] = [];
    let fail = false;
    a.t.runtime.deps.acme = {
      issue: async (req) => {
        orders.push(req);
        if (fail) throw new Error("the CA said no");
        const ca = await issue({ cn: "Fake ACME CA", ca: true });
        const leaf = await issue({ cn: req.domain, san: [req.domain], issuer: ca });
        return { cert_pem: `${leaf.pem}\n${ca.pem}`, key_pem: leaf.keyPem };
      },
    };
    try {
      const res = await post({ domain: "le.example.test", type: "letsencrypt", use_staging: true });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body).toMatchObject({ type: "letsencrypt", acme_challenge: "http-01", acme_staging: true, issuer: "CN=Fake ACME CA" });
      expect(orders).toEqual([{ domain: "le.example.test", challenge: "http-01", staging: true }]);
      expect((await a.req("POST", `certificates/${body.id}/renew`, a.admin)).status).toBe(200);
      expect(orders).toHaveLength(2);
      fail = true;
      const failed = await a.req("POST", `certificates/${body.id}/renew`, a.admin);
      expect(failed.status).toBe(500);
      const detail = await (await a.req("GET", `certificates/${body.id}`, a.admin)).json();
      expect(detail.renew_error).toBe("the CA said no");
    } finally {
      if (acme) a.t.runtime.deps.acme = acme;
      else delete a.t.runtime.deps.acme;
    }
  });

  it("delete refuses the active certificate with 409 and how to proceed; others answer {detail: deleted}", async () => {
    const [active] = await a.t.sql<{ id: number }[]>`select id from certificates where is_active`;
    const refused = await a.req("DELETE", `certificates/${active!.id}`, a.admin);
    expect(refused.status).toBe(409);
    expect((await refused.json()).detail).toMatch(/Activate another certificate first/);
    const spare = await (await post({ domain: "spare.example.test" })).json();
    const res = await a.req("DELETE", `certificates/${spare.id}`, a.admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ detail: "deleted" });
    expect((await a.req("GET", `certificates/${spare.id}`, a.admin)).status).toBe(404);
    expect((await a.req("DELETE", `certificates/${spare.id}`, a.admin)).status).toBe(404);
  });

  it("a viewer and an editor get 403 on every route, and nothing changes", async () => {
    const [row] = await a.t.sql<{ id: number }[]>`select id from certificates order by id limit 1`;
    const before = await count();
    for (const token of [a.viewer, a.editor]) {
      expect((await a.req("GET", "certificates", token)).status).toBe(403);
      expect((await a.req("GET", `certificates/${row!.id}`, token)).status).toBe(403);
      expect((await post({ domain: "v.example.test" }, token)).status).toBe(403);
      expect((await a.req("PUT", `certificates/${row!.id}`, token, { auto_renew: false })).status).toBe(403);
      expect((await a.req("POST", `certificates/${row!.id}/activate`, token)).status).toBe(403);
      expect((await a.req("POST", `certificates/${row!.id}/renew`, token)).status).toBe(403);
      expect((await a.req("DELETE", `certificates/${row!.id}`, token)).status).toBe(403);
    }
    expect(await count()).toBe(before);
  });
});
