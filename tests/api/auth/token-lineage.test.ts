// Tokens made by tokens (issue 36 item 11, docs/adr/0320): a token mints or rotates tokens only with
// write:tokens, a child never has more scopes or a later expiry than its parent, and revoking a token
// revokes everything created through it, in one transaction, audited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;

interface Issued {
  id: number;
  token: string;
  scopes: string[];
  expires_at: string | null;
}

async function mint(credential: string, body: Record<string, unknown>): Promise<Issued> {
  const res = await a.req("POST", "auth/api-token", credential, body);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return res.json();
}

const tokenCount = async () => (await a.t.sql<{ n: number }[]>`select count(*)::int as n from api_tokens`)[0]!.n;
const works = async (token: string) => (await a.req("GET", "auth/me", token)).status;

beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("a token creating tokens", () => {
  it("a read-only token cannot mint a copy of itself, nor rotate itself into a fresh secret", async () => {
    const readOnly = await mint(a.admin, { label: "ro", scopes: ["read:hardware"], expires_in_days: 1 });
    const before = await tokenCount();
    const res = await a.req("POST", "auth/api-token", readOnly.token, { label: "child", scopes: ["read:hardware"] });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error_code: "PERMISSION_DENIED", detail: expect.stringContaining("write:tokens") });
    expect(await tokenCount()).toBe(before);
    const rotate = await a.req("POST", `auth/api-tokens/${readOnly.id}/rotate`, readOnly.token);
    expect(rotate.status).toBe(403);
    expect(await works(readOnly.token)).toBe(200);
  });

  it("with write:tokens: the child inherits the parent's expiry, may not ask for a later one, nor for wider scopes", async () => {
    const parent = await mint(a.admin, { label: "minter", scopes: ["read:hardware", "write:tokens"], expires_in_days: 1 });
    const child = await mint(parent.token, { label: "child", scopes: ["read:hardware"] });
    expect(child.expires_at).toBe(parent.expires_at);
    const shorter = new Date(Date.now() + 3_600_000).toISOString();
    expect((await mint(parent.token, { label: "short", scopes: ["read:hardware"], expires_at: shorter })).expires_at).toBe(shorter);
    const before = await tokenCount();
    const later = await a.req("POST", "auth/api-token", parent.token, { label: "later", scopes: ["read:hardware"], expires_in_days: 30 });
    expect(later.status).toBe(422);
    expect((await later.json()).fields).toHaveProperty(["expires_in_days"]);
    const laterAt = await a.req("POST", "auth/api-token", parent.token, { label: "later", expires_at: "2099-01-01T00:00:00Z" });
    expect(laterAt.status).toBe(422);
    expect((await laterAt.json()).fields).toHaveProperty(["expires_at"]);
    const wider = await a.req("POST", "auth/api-token", parent.token, { label: "wider", scopes: ["read:services"] });
    expect(wider.status).toBe(403);
    expect(await tokenCount()).toBe(before);
    const [row] = await a.t.sql<{ parent_token_id: number | null }[]>`select parent_token_id from api_tokens where id = ${child.id}`;
    expect(row!.parent_token_id).toBe(parent.id);
  });

  it("any user's session may grant write:tokens, and then that token may mint (never wider than itself)", async () => {
    const viewerMinter = await mint(a.viewer, { label: "viewer minter", scopes: ["read:*", "write:tokens"] });
    const child = await mint(viewerMinter.token, { label: "viewer child" });
    expect(child.scopes).toEqual(["read:*", "write:tokens"]);
    const res = await a.req("POST", "auth/api-token", viewerMinter.token, { label: "wider", scopes: ["write:hardware"] });
    expect(res.status).toBe(403);
  });

  it("a token cannot rotate a sibling that outlives it", async () => {
    const shortLived = await mint(a.admin, { label: "short minter", scopes: ["read:*", "write:tokens"], expires_in_days: 1 });
    const forever = await mint(a.admin, { label: "forever", scopes: ["read:*"] });
    const res = await a.req("POST", `auth/api-tokens/${forever.id}/rotate`, shortLived.token);
    expect(res.status).toBe(403);
    expect(await works(forever.token)).toBe(200);
    // Rotating itself is fine: the new secret keeps the same expiry.
    const self = await a.req("POST", `auth/api-tokens/${shortLived.id}/rotate`, shortLived.token);
    expect(self.status).toBe(200);
  });

  it("a service account created through a token is that token's child and never outlives it", async () => {
    const adminMinter = await mint(a.admin, { label: "admin minter", expires_in_days: 2 });
    const res = await a.req("POST", "auth/service-account", adminMinter.token, { name: "Lineage Bot", role: "viewer" });
    expect(res.status).toBe(201);
    const { token } = await res.json();
    expect(token.expires_at).toBe(adminMinter.expires_at);
    const revoke = await a.req("DELETE", `auth/api-tokens/${adminMinter.id}`, a.admin);
    expect(revoke.status).toBe(200);
    expect(await works(token.token)).toBe(401);
  });
});

describe("revoking a token revokes what it created", () => {
  it("children and grandchildren stop working with the parent, in one transaction, each audited", async () => {
    const parent = await mint(a.admin, { label: "root", scopes: ["read:*", "write:tokens"], expires_in_days: 1 });
    const child = await mint(parent.token, { label: "child" });
    const grandchild = await mint(child.token, { label: "grandchild", scopes: ["read:hardware"] });
    const sibling = await mint(a.admin, { label: "unrelated", scopes: ["read:*"] });
    const res = await a.req("DELETE", `auth/api-tokens/${parent.id}`, a.admin);
    expect(res.status).toBe(200);
    expect((await res.json()).detail).toBe(`API token ${parent.id} revoked, with 2 tokens created through it.`);
    for (const t of [parent, child, grandchild]) expect(await works(t.token)).toBe(401);
    expect(await works(sibling.token)).toBe(200);
    const rows = await a.t.sql<
      { revoked_at: Date }[]
    >`select revoked_at from api_tokens where id in ${a.t.sql([parent.id, child.id, grandchild.id])}`;
    expect(new Set(rows.map((r) => r.revoked_at.toISOString())).size).toBe(1);
    const audits = await a.t.sql<{ entity_id: string; diff: { revoked_with?: number } }[]>`
      select entity_id, diff from audit_log where action = 'token.revoked' and entity_id in ${a.t.sql([String(parent.id), String(child.id), String(grandchild.id)])}`;
    expect(audits.map((e) => Number(e.entity_id)).sort((x, y) => x - y)).toEqual([parent.id, child.id, grandchild.id]);
    expect(audits.find((e) => Number(e.entity_id) === grandchild.id)!.diff.revoked_with).toBe(parent.id);
  });

  it("a token that revokes itself takes its children with it", async () => {
    const parent = await mint(a.admin, { label: "self revoker", scopes: ["read:*", "write:tokens"] });
    const child = await mint(parent.token, { label: "child" });
    expect((await a.req("DELETE", `auth/api-tokens/${parent.id}`, parent.token)).status).toBe(200);
    expect(await works(child.token)).toBe(401);
  });

  it("a revoked parent cannot mint", async () => {
    const parent = await mint(a.admin, { label: "gone", scopes: ["read:*", "write:tokens"] });
    expect((await a.req("DELETE", `auth/api-tokens/${parent.id}`, a.admin)).status).toBe(200);
    expect((await a.req("POST", "auth/api-token", parent.token, { label: "late" })).status).toBe(401);
  });
});
