// No secret in a log: statements that carry secrets (a new user's password hash, an API token's
// salt:hmac, an SNMP community string) are made to fail inside PostgreSQL by triggers the test adds, so
// each request ends in the unhandled-error path; the lines logged say which statement failed (SQLSTATE,
// table, statement text) and carry none of the values.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLogger } from "../../../shared/logger.ts";
import { redactSecrets, safeErrorFields } from "../../../shared/safe-error.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
const lines: string[] = [];
const COMMUNITY = "community-string-never-logged";
const PASSWORD = "a password that is never logged";

beforeAll(async () => {
  a = await createActors();
  a.t.runtime.deps.logger = jsonLogger("debug", (l) => lines.push(l));
  await a.t.sql.unsafe(`
    create function refuse_for_test() returns trigger language plpgsql as $$
      begin raise exception 'refused by the secret-logs test'; end $$;
    create trigger refuse_users before insert on users for each row execute function refuse_for_test();
    create trigger refuse_tokens before insert on api_tokens for each row execute function refuse_for_test();
    create trigger refuse_configs before insert or update on telemetry_configs for each row execute function refuse_for_test();
  `);
});
afterAll(async () => {
  await a?.t.close();
});

async function failsWith500(method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  lines.length = 0;
  const res = await a.req(method, path, a.admin, body);
  expect(res.status, `${method} ${path}`).toBe(500);
  const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === "unhandled exception");
  expect(logged, lines.join("\n")).toBeDefined();
  return logged!;
}

function expectNoSecrets(text: string): void {
  expect(text).not.toMatch(/pbkdf2_sha256\$/);
  expect(text).not.toMatch(/[0-9a-f]{16,}:[0-9a-f]{64}/i);
  expect(text).not.toMatch(/params: (?!\[redacted\])/);
  expect(text).not.toContain(COMMUNITY);
  expect(text).not.toContain(PASSWORD);
}

describe("secrets never reach the log", () => {
  it("a failed user insert logs the SQLSTATE, table and statement, not the password hash", async () => {
    const line = await failsWith500("POST", "admin/users", { email: "new@example.com", password: PASSWORD, role: "viewer" });
    expect(line).toMatchObject({ sqlstate: "P0001", error: "refused by the secret-logs test" });
    expect(String(line.statement)).toMatch(/^insert into "users"/);
    expectNoSecrets(lines.join("\n"));
  });

  it("a failed API-token insert does not log the token's salt:hmac", async () => {
    const line = await failsWith500("POST", "auth/api-token", { label: "cli", scopes: ["read:*"] });
    expect(String(line.statement)).toMatch(/^insert into "api_tokens"/);
    expectNoSecrets(lines.join("\n"));
  });

  it("a failed SNMP configuration does not log the community string", async () => {
    const hw = await a.req("POST", "hardware", a.admin, { name: "snmp-node", ip_address: "127.0.0.1" });
    expect(hw.status).toBe(201);
    const id = (await hw.json()).id as number;
    const line = await failsWith500("POST", `hardware/${id}/telemetry/config`, { community: COMMUNITY });
    expect(line.sqlstate).toBe("P0001");
    expectNoSecrets(lines.join("\n"));
  });

  it("errors that callers stringify themselves are redacted too", () => {
    const drizzleLike = Object.assign(
      new Error(`Failed query: insert into "users" ("password_hash") values ($1)\nparams: pbkdf2_sha256$600000$c2FsdA$aGFzaA`),
      {
        query: 'insert into "users" ("password_hash") values ($1)',
        params: ["pbkdf2_sha256$600000$c2FsdA$aGFzaA"],
      },
    );
    expectNoSecrets(redactSecrets(String(drizzleLike)));
    expectNoSecrets(JSON.stringify(safeErrorFields(drizzleLike)));
    expect(safeErrorFields(drizzleLike).statement).toBe('insert into "users" ("password_hash") values ($1)');
  });
});
