// The verb contract itself (shared/verbs/verb.ts), against the real database: access is checked
// before `prepare`, `s.refuse` commits what was recorded and then throws, a body that throws leaves
// nothing behind (rows, audit entries, events), reads check their scope too, the system actor passes
// every scope and is audited as "system", and every verb exposes the scope a route documents.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROLE_SCOPES } from "../../../shared/auth/scopes.ts";
import { ApiError } from "../../../shared/errors.ts";
import { changeMyPassword } from "../../../shared/verbs/account/change-password.ts";
import type { Actor } from "../../../shared/verbs/actor.ts";
import { createUser } from "../../../shared/verbs/admin-users/create-user.ts";
import { listUsers } from "../../../shared/verbs/admin-users/list-users.ts";
import { login } from "../../../shared/verbs/auth/login.ts";
import { systemContext, type VerbContext } from "../../../shared/verbs/verb-context.ts";
import { defineRead, defineVerb, recordRefusal } from "../../../shared/verbs/verb.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** A verb context as functions/context.ts builds one, for `actor`. */
const contextFor = (actor?: Actor): VerbContext => {
  const deps = t.runtime.deps;
  return {
    db: deps.database.lease().db,
    clock: deps.clock,
    random: deps.random,
    actor,
    ip: "192.0.2.7",
    credentialCache: deps.credentialCache,
  };
};
const viewer: Actor = { userId: 41, email: "viewer@example.com", role: "viewer", roleScopes: [...ROLE_SCOPES.viewer], kind: "session" };
const editor: Actor = { userId: 42, email: "editor@example.com", role: "editor", roleScopes: [...ROLE_SCOPES.editor], kind: "session" };

const entries = (action: string) => t.sql<
  { actor_id: number | null; actor_email: string | null; role_at_time: string | null; diff: unknown }[]
>`
  select actor_id, actor_email, role_at_time, diff from audit_log where action = ${action} order by id`;
const setting = async (key: string) => (await t.sql`select 1 from app_settings where key = ${key}`).length;
const writeSetting = (s: { tx: VerbContext["db"] }, key: string) =>
  s.tx.execute(sql`insert into app_settings (key, value) values (${key}, 'true')`);

describe("a write verb", () => {
  it("refuses a caller without its scope before prepare runs, with no side effect", async () => {
    let prepared = 0;
    let ran = 0;
    const verb = defineVerb(
      {
        scope: "write:hardware",
        prepare: async () => {
          prepared++;
        },
      },
      async (s) => {
        ran++;
        await writeSetting(s, "contract.unauthorised");
        s.audit({ action: "test.unauthorised", category: "test" });
      },
    );
    await expect(verb({ ctx: contextFor() })).rejects.toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    await expect(verb({ ctx: contextFor(viewer) })).rejects.toMatchObject({ status: 403, code: "PERMISSION_DENIED" });
    expect([prepared, ran]).toEqual([0, 0]);
    expect(await setting("contract.unauthorised")).toBe(0);
    expect(await entries("test.unauthorised")).toHaveLength(0);

    await verb({ ctx: contextFor(editor) });
    expect([prepared, ran]).toEqual([1, 1]);
  });

  it("hands prepare's result to the body; a prepare that throws opens no transaction", async () => {
    const verb = defineVerb<{ fail: boolean }, string, string>(
      {
        scope: "public",
        prepare: async (_ctx, input) => {
          if (input.fail) throw ApiError.conflict("refused early");
          return "prepared";
        },
      },
      async (s, _input, prepared) => {
        s.audit({ action: "test.prepared", category: "test", diff: { prepared } });
        return prepared;
      },
    );
    await expect(verb({ ctx: contextFor(), input: { fail: true } })).rejects.toMatchObject({ status: 409 });
    expect(await entries("test.prepared")).toHaveLength(0);
    expect(await verb({ ctx: contextFor(), input: { fail: false } })).toBe("prepared");
    expect((await entries("test.prepared")).map((e) => e.diff)).toEqual([{ prepared: "prepared" }]);
  });

  it("s.refuse commits what the body recorded, then throws the refusal", async () => {
    const verb = defineVerb({ scope: "write:hardware" }, async (s) => {
      await writeSetting(s, "contract.refused");
      s.audit({ action: "test.refused", category: "test", level: "warning" });
      return s.refuse(ApiError.conflict("refused after recording"));
    });
    await expect(verb({ ctx: contextFor(editor) })).rejects.toMatchObject({ status: 409, detail: "refused after recording" });
    expect(await setting("contract.refused")).toBe(1);
    expect(await entries("test.refused")).toMatchObject([{ actor_id: editor.userId, role_at_time: "editor" }]);
  });

  it("a body that throws rolls back its writes, its audit entries and its events", async () => {
    const heard: string[] = [];
    const listening = await t.sql.listen("inventory", (payload) => heard.push(payload));
    try {
      const failing = defineVerb({ scope: "write:hardware" }, async (s) => {
        await writeSetting(s, "contract.rolled_back");
        s.audit({ action: "test.rolled_back", category: "test" });
        s.emit("inventory", { probe: "rolled back" });
        throw ApiError.conflict("the body failed");
      });
      const committing = defineVerb({ scope: "write:hardware" }, async (s) => {
        s.emit("inventory", { probe: "committed" });
      });
      await expect(failing({ ctx: contextFor(editor) })).rejects.toMatchObject({ status: 409 });
      // Events of a committed verb arrive: once this one is heard, the failed one would have been too.
      await committing({ ctx: contextFor(editor) });
      for (let i = 0; i < 300 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(heard.map((p) => JSON.parse(p))).toEqual([{ probe: "committed" }]);
    } finally {
      await listening.unlisten();
    }
    expect(await setting("contract.rolled_back")).toBe(0);
    expect(await entries("test.rolled_back")).toHaveLength(0);
  });

  it("recordRefusal commits its entries for any caller, signed in or not", async () => {
    await recordRefusal({ ctx: contextFor(), input: [{ action: "test.recorded", category: "security", level: "warning" }] });
    expect(await entries("test.recorded")).toMatchObject([{ actor_id: null, role_at_time: null }]);
  });
});

describe("a read verb", () => {
  it("checks its scope and runs on the caller's database handle, outside any transaction", async () => {
    const ctx = contextFor(viewer);
    let seen: unknown;
    const read = defineRead({ scope: "read:hardware" }, async (inner) => {
      seen = inner.db;
      return "read";
    });
    const adminOnly = defineRead({ scope: "admin:*" }, async () => "never");
    expect(await read({ ctx })).toBe("read");
    expect(seen).toBe(ctx.db);
    await expect(read({ ctx: contextFor() })).rejects.toMatchObject({ status: 401 });
    await expect(adminOnly({ ctx })).rejects.toMatchObject({ status: 403, code: "PERMISSION_DENIED" });
  });
});

describe("the system actor", () => {
  it("passes any scope and is audited with role system and no user", async () => {
    const verb = defineVerb({ scope: "admin:*" }, async (s) => {
      s.audit({ action: "test.system", category: "test" });
    });
    const ctx = systemContext({ ...t.runtime.deps, db: t.runtime.deps.database.lease().db });
    await verb({ ctx });
    expect(await entries("test.system")).toMatchObject([{ actor_id: null, actor_email: null, role_at_time: "system" }]);
    const read = defineRead({ scope: "delete:everything" }, async () => "allowed");
    expect(await read({ ctx })).toBe("allowed");
  });
});

describe("a verb's scope", () => {
  it("is exposed for routes: the scope string, undefined for public and for a rule of its own", () => {
    expect(defineVerb({ scope: "write:hardware" }, async () => {}).scope).toBe("write:hardware");
    expect(defineRead({ scope: "read:hardware" }, async () => {}).scope).toBe("read:hardware");
    expect(defineVerb({ scope: "public" }, async () => {}).scope).toBeUndefined();
    expect(defineVerb({ scope: () => {} }, async () => {}).scope).toBeUndefined();
    expect([createUser.scope, listUsers.scope, login.scope, changeMyPassword.scope]).toEqual(["admin:*", "admin:*", undefined, undefined]);
  });
});
