// The app side of the dns-01 tests: an app configured for a Pebble directory, an administrator who sets
// the ACME DNS settings through PATCH /api/v1/settings/acme-dns (the operator's route), and the outbound
// policy opened to loopback (the fakes and BIND listen on 127.0.0.x).
import { expect } from "vitest";
import { createTestApp, json, type TestApp } from "./app.ts";
import type { Pebble } from "./pebble.ts";

const SETUP = "acme-dns-setup-token";

export interface AcmeDnsApp {
  t: TestApp;
  /** PATCH /api/v1/settings/acme-dns as the administrator; returns the response. */
  setDns(body: Record<string, unknown>): Promise<Response>;
}

export async function createAcmeDnsApp(pebble: Pebble, env: Record<string, string> = {}): Promise<AcmeDnsApp> {
  const t = await createTestApp({
    SVC_SETUP_TOKEN: SETUP,
    SVC_ACME_DIRECTORY_URL: pebble.directoryUrl,
    SVC_ACME_STAGING_DIRECTORY_URL: pebble.directoryUrl,
    SVC_ACME_CA_FILE: pebble.caFile,
    ...env,
  });
  const init = await t.app.request("/api/v1/bootstrap/initialize", {
    method: "POST",
    ...json({ email: "admin@example.com", password: "acme dns admin password", setup_token: SETUP }),
  });
  expect(init.status).toBe(200);
  const token = ((await init.json()) as { token: string }).token;
  const policy = t.sql.json({ allow_private: true, allow_loopback: true });
  await t.sql`insert into app_settings (key, value) values ('outbound_policy', ${policy}) on conflict (key) do update set value = ${policy}`;
  return {
    t,
    setDns: async (body) =>
      t.app.request("/api/v1/settings/acme-dns", { method: "PATCH", ...json(body, { authorization: `Bearer ${token}` }) }),
  };
}
