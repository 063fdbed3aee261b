// The cve group against the recorded NVD slice (tests/fixtures/nvd): sync from a file and from a
// loopback URL (127.0.0.101), incremental re-sync, status states, search, assessments of an inventory
// built to hit, miss and half-match, operator identities, and alerts sent once per (asset, CVE).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

const FIXTURE = new URL("../../fixtures/nvd/nvdcve-2.0-slice.json", import.meta.url).pathname;
const FIXTURE_GZ = `${FIXTURE}.gz`;
const REAL = 22;
const SYNTHETIC = 250;
const REJECTED = SYNTHETIC / 25;

let a: Actors;
let dir: string;
let server: Server;
let serverUrl: string;
const ids: Record<string, number> = {};

async function settings(body: Record<string, unknown>) {
  const res = await a.req("PUT", "/api/v1/settings", a.admin, body);
  expect(res.status).toBe(200);
}

/** Starts a sync and waits (bounded) for its job run to end; answers the run row. */
async function sync(): Promise<{ outcome: string; detail: Record<string, number> & { invalid_examples: string[] }; error: string | null }> {
  const res = await a.req("POST", "/api/v1/cve/sync", a.admin);
  expect(res.status).toBe(202);
  const body = await res.json();
  expect(body).toMatchObject({ status: "sync_started", run_id: expect.any(Number) });
  for (let i = 0; i < 600; i++) {
    const [run] = await a.t.sql`select outcome, detail, error from job_runs where id = ${body.run_id}`;
    if (run && run.outcome !== "running") return run as never;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the sync did not finish within 30 s");
}

const assess = async (type: string, id: number | string) => {
  const res = await a.req("GET", `/api/v1/cve/entity/${type}/${id}`, a.viewer);
  return { status: res.status, body: await res.json() };
};
const findingIds = (body: { findings: { cve_id: string }[] }) =>
  body.findings
    .map((f) => f.cve_id)
    .filter((id) => !id.startsWith("CVE-2099"))
    .sort();

beforeAll(async () => {
  a = await createActors();
  dir = mkdtempSync(join(tmpdir(), "cve-test-"));
  const gz = readFileSync(FIXTURE_GZ);
  server = createServer((req, res) => {
    if (req.url === "/feeds/nvdcve-2.0-slice.json.gz") {
      res.writeHead(200, { "content-type": "application/gzip", "content-length": gz.length });
      res.end(gz);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.101", r));
  serverUrl = `http://127.0.0.101:${(server.address() as { port: number }).port}/feeds/nvdcve-2.0-slice.json.gz`;
  const ins = async (q: Promise<{ id: number }[]>, key: string) => (ids[key] = (await q)[0]!.id);
  const sql = a.t.sql;
  // Services named the way inventory-identity.ts derives identities from (name, slug, key here).
  const named: [string, string, string][] = [
    ["OpenSSH 9.6", "ssh-96", "ssh96"],
    ["OpenSSH 9.3p1", "ssh-93p1", "ssh93p1"],
    ["OpenSSH 9.8", "ssh-98", "ssh98"],
    ["OpenSSH 9.9", "ssh-99", "ssh99"],
    ["nginx 1.20.0", "nginx-old", "nginxOld"],
    ["nginx 1.20.1", "nginx-fixed", "nginxFixed"],
    ["Apache httpd 2.4.49", "httpd-49", "httpd49"],
    ["Apache httpd 2.4.55", "httpd-55", "httpd55"],
    ["log4j 2.14.1", "log4j-old", "log4jOld"],
    ["log4j 2.17.1", "log4j-new", "log4jNew"],
    ["OpenSSL 1.1.1k", "openssl-k", "opensslK"],
    ["OpenSSL 3.0.5", "openssl-305", "openssl305"],
    ["Our own app", "own-app", "ownApp"],
  ];
  for (const [name, slug, key] of named) await ins(sql`insert into services (name, slug) values (${name}, ${slug}) returning id`, key);
  await ins(sql`insert into compute_units (name, kind, os) values ('web-vm', 'vm', 'Ubuntu 22.04') returning id`, "ubuntu");
  await ins(sql`insert into compute_units (name, kind, os) values ('router', 'vm', 'RouterOS 6.42') returning id`, "routeros");
  await ins(sql`insert into compute_units (name, kind, os) values ('bare', 'container', null) returning id`, "noOs");
  await ins(sql`insert into hardware (name, vendor, model) values ('ax21', 'TP-Link', 'Archer AX21') returning id`, "ax21");
  await ins(sql`insert into hardware (name, vendor, model) values ('nas', 'Synology', 'DS920+') returning id`, "nas");
  await ins(sql`insert into hardware (name, vendor, model) values ('edge', 'Ubiquiti', 'EdgeRouter X') returning id`, "edge");
});

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  rmSync(dir, { recursive: true, force: true });
  await a?.t.close();
});

describe("before any sync", () => {
  it("status is unavailable and an assessment says feed_missing", async () => {
    const res = await a.req("GET", "/api/v1/cve/status", a.viewer);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      enabled: true,
      last_sync_at: null,
      sync_interval_hours: 24,
      total_entries: 0,
      state: "unavailable",
      generation: 0,
      total_records: 0,
      coverage_complete: false,
    });
    const { body } = await assess("service", ids.ssh96!);
    expect(body).toMatchObject({
      state: "unavailable",
      reason_code: "feed_missing",
      completeness: "none",
      findings: [],
      items: [],
      total: 0,
    });
  });

  it("POST /cve/sync is 409 without a source, 403 for an editor, and records nothing", async () => {
    const res = await a.req("POST", "/api/v1/cve/sync", a.admin);
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toMatch(/cve_feed_sources/);
    expect((await a.req("POST", "/api/v1/cve/sync", a.editor)).status).toBe(403);
    expect((await a.t.sql`select count(*)::int as n from job_runs where job = 'cve_sync'`)[0]!.n).toBe(0);
  });

  it("refuses a source that is neither an absolute path nor an http(s) URL", async () => {
    const res = await a.req("PUT", "/api/v1/settings", a.admin, { cve_feed_sources: ["relative/file.json"] });
    expect(res.status).toBe(422);
  });
});

describe("sync from a file", () => {
  const file = () => join(dir, "feed.json");

  it("imports the slice: real and synthetic records, rejected ones left out, cpe rows indexed", async () => {
    copyFileSync(FIXTURE, file());
    await settings({ cve_feed_sources: [file()] });
    const run = await sync();
    expect(run.error).toBeNull();
    expect(run.outcome).toBe("success");
    expect(run.detail).toMatchObject({
      generation: 1,
      read: REAL + SYNTHETIC,
      inserted: REAL + SYNTHETIC - REJECTED,
      updated: 0,
      removed: 0,
      invalid: 0,
    });
    const [{ n }] = (await a.t.sql`select count(*)::int as n from cve_entries`) as unknown as [{ n: number }];
    expect(n).toBe(REAL + SYNTHETIC - REJECTED);
    const [log4j] = await a.t.sql`select severity, cvss_score, vuln_status, published_at from cve_entries where cve_id = 'CVE-2021-44228'`;
    expect(log4j).toMatchObject({ severity: "critical", cvss_score: 10, vuln_status: "Analyzed" });
    expect(new Date(log4j!.published_at).toISOString()).toBe("2021-12-10T10:15:09.143Z");
    const [{ m }] = (await a.t.sql`select count(*)::int as m from cve_cpe_matches where cve_id = 'CVE-2021-44228'`) as unknown as [
      { m: number },
    ];
    expect(m).toBe(8);
    const [heartbleed] = await a.t.sql`select severity, cvss_score from cve_entries where cve_id = 'CVE-2014-0160'`;
    expect(heartbleed).toMatchObject({ severity: "high", cvss_score: 7.5 });
  });

  it("status is ready with the counts and the older keys", async () => {
    const body = await (await a.req("GET", "/api/v1/cve/status", a.viewer)).json();
    expect(body).toMatchObject({
      state: "ready",
      generation: 1,
      total_records: REAL + SYNTHETIC - REJECTED,
      total_entries: REAL + SYNTHETIC - REJECTED,
      coverage_complete: true,
      last_error: null,
    });
    expect(body.last_sync_at).toBe(body.completed_at);
    expect(body.age_seconds).toBeGreaterThanOrEqual(0);
  });

  it("re-sync of the same file skips everything by the cursor", async () => {
    const run = await sync();
    expect(run.detail).toMatchObject({
      generation: 2,
      inserted: 0,
      updated: 0,
      removed: 0,
      skipped_by_cursor: REAL + SYNTHETIC - REJECTED,
    });
  });

  it("an incremental re-sync changes only the changed rows and removes a CVE NVD rejected", async () => {
    const doc = JSON.parse(readFileSync(FIXTURE, "utf8"));
    const vulns = doc.vulnerabilities as {
      cve: { id: string; lastModified: string; vulnStatus: string; descriptions: { value: string }[]; configurations: unknown[] };
    }[];
    const nginx = vulns.find((v) => v.cve.id === "CVE-2021-23017")!.cve;
    nginx.lastModified = "2026-11-24T10:00:00.000";
    nginx.descriptions[0]!.value = "Updated description of the nginx resolver issue.";
    const bash = vulns.find((v) => v.cve.id === "CVE-2014-6271")!.cve;
    Object.assign(bash, { lastModified: "2026-11-24T11:00:00.000", vulnStatus: "Rejected", configurations: [] });
    writeFileSync(file(), JSON.stringify(doc));
    const before = await a.t.sql`select cve_id, generation from cve_entries where cve_id <> 'CVE-2021-23017' order by cve_id`;
    const run = await sync();
    expect(run.detail).toMatchObject({
      generation: 3,
      inserted: 0,
      updated: 1,
      removed: 1,
      skipped_by_cursor: REAL + SYNTHETIC - REJECTED - 2,
    });
    const [changed] = await a.t.sql`select summary, generation from cve_entries where cve_id = 'CVE-2021-23017'`;
    expect(changed).toEqual({ summary: "Updated description of the nginx resolver issue.", generation: 3 });
    expect((await a.t.sql`select 1 from cve_entries where cve_id = 'CVE-2014-6271'`).length).toBe(0);
    expect((await a.t.sql`select 1 from cve_cpe_matches where cve_id = 'CVE-2014-6271'`).length).toBe(0);
    const after = await a.t.sql`select cve_id, generation from cve_entries where cve_id <> 'CVE-2021-23017' order by cve_id`;
    expect(after).toEqual(before.filter((r) => r.cve_id !== "CVE-2014-6271"));
  });

  it("a source that cannot be read fails the run, keeps the rows and makes the status incomplete", async () => {
    await settings({ cve_feed_sources: [join(dir, "missing.json")] });
    const run = await sync();
    expect(run.outcome).toBe("failed");
    expect(run.error).toMatch(/no such file/);
    const body = await (await a.req("GET", "/api/v1/cve/status", a.viewer)).json();
    // coverage_complete is the last completed sync's (issue 36 item 7: a failed one changes no CVE).
    expect(body).toMatchObject({
      state: "incomplete",
      generation: 3,
      coverage_complete: true,
      last_error: expect.stringMatching(/no such file/),
    });
    expect(body.total_records).toBe(REAL + SYNTHETIC - REJECTED - 1);
    expect((await assess("service", ids.ssh96!)).body).toMatchObject({ state: "partial", reason_code: "feed_incomplete" });
  });

  it("a document that is not NVD 2.0 fails with the reason", async () => {
    writeFileSync(join(dir, "other.json"), JSON.stringify({ format: "NVD_CPE", version: "2.0", products: [] }));
    await settings({ cve_feed_sources: [join(dir, "other.json")] });
    const run = await sync();
    expect(run.outcome).toBe("failed");
    expect(run.error).toMatch(/No vulnerabilities array|NVD_CVE/);
  });
});

describe("sync from a URL (gzip) through the outbound policy", () => {
  it("is refused while the policy forbids loopback addresses", async () => {
    // Saved while loopback is allowed (a loopback URL is refused when saved under the strict policy), then the policy tightened: the fetch checks again.
    await settings({ cve_feed_sources: [serverUrl], outbound_policy: { allow_private: true, allow_loopback: true } });
    await settings({ outbound_policy: { allow_private: false, allow_loopback: false } });
    const run = await sync();
    expect(run.outcome).toBe("failed");
    expect(run.error).toMatch(/loopback|not allowed|refused|policy/i);
  });

  it("reads the gzip file once loopback is allowed; the new source list means a full comparison", async () => {
    await settings({ cve_feed_sources: [serverUrl], outbound_policy: { allow_private: true, allow_loopback: true } });
    const run = await sync();
    expect(run.error).toBeNull();
    // The fixture's own CVE-2021-23017 is older than the stored one, and its CVE-2014-6271 comes back.
    expect(run.detail).toMatchObject({
      read: REAL + SYNTHETIC,
      inserted: 1,
      updated: 0,
      skipped_by_cursor: 0,
      unchanged: REAL + SYNTHETIC - REJECTED - 1,
    });
    const body = await (await a.req("GET", "/api/v1/cve/status", a.viewer)).json();
    expect(body).toMatchObject({ state: "ready", total_records: REAL + SYNTHETIC - REJECTED, last_error: null });
  });
});

describe("GET /cve/search", () => {
  const search = async (qs: string) => {
    const res = await a.req("GET", `/api/v1/cve/search?${qs}`, a.viewer);
    return { status: res.status, body: await res.json() };
  };

  it("finds by id and by text in the summary, with vendor and product of the matching criterion", async () => {
    const byId = await search("q=cve-2021-44228");
    expect(byId.body.total).toBe(1);
    expect(byId.body.items[0]).toMatchObject({
      cve_id: "CVE-2021-44228",
      vendor: "apache",
      product: "log4j",
      version_start: "2.0.1",
      version_end: "2.3.1",
      severity: "critical",
      cvss_score: 10,
    });
    const text = await search("q=heartbeat");
    expect(text.body.items.map((i: { cve_id: string }) => i.cve_id)).toEqual(["CVE-2014-0160"]);
    expect((await search("q=50%25")).body.total).toBe(0);
    const prefix = await search("q=cve-2021-4&limit=100");
    expect(prefix.body.items.map((i: { cve_id: string }) => i.cve_id)).toEqual([
      "CVE-2021-45046",
      "CVE-2021-44228",
      "CVE-2021-42013",
      "CVE-2021-41773",
    ]);
  });

  it("filters by vendor, product and severity, and pages", async () => {
    const ssh = await search("vendor=OpenBSD&product=openssh&limit=100");
    const real = ssh.body.items
      .filter((i: { cve_id: string }) => !i.cve_id.startsWith("CVE-2099"))
      .map((i: { cve_id: string }) => i.cve_id);
    expect(real).toEqual(["CVE-2024-6387", "CVE-2023-38408"]);
    expect(ssh.body.items.every((i: { vendor: string; product: string }) => i.vendor === "openbsd" && i.product === "openssh")).toBe(true);
    const crit = await search("severity=critical&limit=500");
    expect(crit.body.items.every((i: { severity: string }) => i.severity === "critical")).toBe(true);
    const p1 = await search("severity=high&limit=5&offset=0");
    const p2 = await search("severity=high&limit=5&offset=5");
    expect(p1.body.total).toBe(p2.body.total);
    expect(p1.body.items).toHaveLength(5);
    expect(new Set([...p1.body.items, ...p2.body.items].map((i: { cve_id: string }) => i.cve_id)).size).toBe(10);
    const [{ n }] = (await a.t.sql`select count(*)::int as n from cve_entries where severity = 'high'`) as unknown as [{ n: number }];
    expect(p1.body.total).toBe(n);
  });

  it("refuses bad parameters with 422, and clamps a limit above its maximum (docs/adr/0410)", async () => {
    for (const qs of ["limit=0", "offset=-1", "severity=severe", "limit=abc", "limit=2.5"]) expect((await search(qs)).status, qs).toBe(422);
    expect((await search("limit=501")).status).toBe(200);
    expect((await a.req("GET", "/api/v1/cve/search", undefined)).status).toBe(401);
  });
});

describe("GET /cve/entity/{type}/{id}", () => {
  it("hits: in a range, an exact version, an inclusive end", async () => {
    const ssh = (await assess("service", ids.ssh96!)).body;
    expect(ssh).toMatchObject({
      state: "completed",
      reason_code: "completed",
      completeness: "complete",
      identity: { vendor: "openbsd", product: "openssh", version: "9.6", version_scheme: "dotted_numeric", provenance: "inventory" },
    });
    expect(findingIds(ssh)).toEqual(["CVE-2024-6387"]);
    // NVD lists 9.8 with update "-" as affected (the fix is 9.8p1).
    const ssh98 = (await assess("service", ids.ssh98!)).body;
    expect(findingIds(ssh98)).toEqual(["CVE-2024-6387"]);
    expect(ssh98.findings[0].evidence).toContainEqual(
      expect.objectContaining({
        criteria: "cpe:2.3:a:openbsd:openssh:9.8:-:*:*:*:*:*:*",
        version_result: "match",
        reason: "version_equal",
      }),
    );
    expect(ssh.items).toEqual(ssh.findings);
    expect(ssh.total).toBe(ssh.findings.length);
    expect(ssh.findings.find((f: { cve_id: string }) => f.cve_id === "CVE-2024-6387").evidence).toContainEqual({
      criteria: "cpe:2.3:a:openbsd:openssh:*:*:*:*:*:*:*:*",
      vendor: "openbsd",
      product: "openssh",
      vulnerable: true,
      version_result: "match",
      reason: "version_in_range",
    });
    expect(findingIds((await assess("service", ids.httpd49!)).body)).toEqual(["CVE-2021-41773", "CVE-2021-42013", "CVE-2023-25690"]);
    expect(findingIds((await assess("service", ids.httpd55!)).body)).toEqual(["CVE-2023-25690"]);
    expect(findingIds((await assess("service", ids.log4jOld!)).body)).toEqual(["CVE-2021-44228", "CVE-2021-45046"]);
    expect(findingIds((await assess("service", ids.nginxOld!)).body)).toEqual(["CVE-2021-23017"]);
    expect(findingIds((await assess("service", ids.openssl305!)).body)).toEqual(["CVE-2022-3602"]);
    expect(findingIds((await assess("compute_unit", ids.routeros!)).body)).toEqual(["CVE-2018-14847", "CVE-2023-30799"]);
    expect(findingIds((await assess("compute_unit", ids.ubuntu!)).body)).toEqual(["CVE-2023-32629"]);
  });

  it("misses: at an excluding end, a fixed version, past every range", async () => {
    expect(findingIds((await assess("service", ids.ssh99!)).body)).toEqual([]);
    expect(findingIds((await assess("service", ids.nginxFixed!)).body)).toEqual([]);
    const log4j = (await assess("service", ids.log4jNew!)).body;
    expect(findingIds(log4j)).toEqual([]);
    expect(log4j).toMatchObject({ state: "completed", completeness: "complete" });
  });

  it("half-matches: a version with a suffix is unknown against numeric bounds (version_unsupported)", async () => {
    const ssh = (await assess("service", ids.ssh93p1!)).body;
    expect(ssh).toMatchObject({
      state: "partial",
      reason_code: "version_unsupported",
      completeness: "partial",
      identity: { version: "9.3p1", version_scheme: null },
    });
    // CVE-2023-38408 names 9.3:p1 exactly: decided; CVE-2024-6387's ranges cannot be.
    expect(findingIds(ssh)).toEqual(["CVE-2023-38408", "CVE-2024-6387"]);
    const regre = ssh.findings.find((f: { cve_id: string }) => f.cve_id === "CVE-2024-6387");
    expect(
      regre.evidence.some(
        (e: { version_result: string; reason: string }) => e.version_result === "unknown" && e.reason === "version_unsupported",
      ),
    ).toBe(true);
    const agent = ssh.findings.find((f: { cve_id: string }) => f.cve_id === "CVE-2023-38408");
    expect(agent.evidence).toContainEqual(
      expect.objectContaining({
        criteria: "cpe:2.3:a:openbsd:openssh:9.3:p1:*:*:*:*:*:*",
        version_result: "match",
        reason: "version_equal",
      }),
    );
    expect(ssh.limitations.join(" ")).toMatch(/dotted numeric/);
    const openssl = (await assess("service", ids.opensslK!)).body;
    expect(openssl).toMatchObject({ state: "partial", reason_code: "version_unsupported" });
    // 1.1.1k is not ordered at all (not even against 3.0.x bounds), and the exact 1.0.1a-f of Heartbleed stay undecided too.
    expect(findingIds(openssl)).toEqual(["CVE-2014-0160", "CVE-2022-0778", "CVE-2022-3602"]);
    expect(
      openssl.findings.every((f: { evidence: { version_result: string }[] }) => f.evidence.every((e) => e.version_result !== "match")),
    ).toBe(true);
  });

  it("hardware without a version: version_missing where a range needs one; running-on platforms unknown", async () => {
    const ax21 = (await assess("hardware", ids.ax21!)).body;
    expect(ax21).toMatchObject({
      identity: { vendor: "tp-link", product: "archer_ax21", version: null, provenance: "inventory" },
      state: "completed",
    });
    expect(findingIds(ax21)).toEqual([]);
    // The operator names the firmware: the platform criterion (the AX21 hardware v3.0) cannot be checked.
    const put = await a.req("PUT", `/api/v1/cve/identity/hardware/${ids.ax21}`, a.admin, {
      vendor: "TP-Link",
      product: "Archer AX21 Firmware",
      version: "1.1.3",
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({
      operator_set: true,
      identity: { vendor: "tp-link", product: "archer_ax21_firmware", version: "1.1.3", provenance: "operator", revision: 1 },
    });
    const fw = (await assess("hardware", ids.ax21!)).body;
    expect(findingIds(fw)).toEqual(["CVE-2023-1389"]);
    expect(fw).toMatchObject({ state: "completed", completeness: "partial", identity_revision: 1 });
    expect(fw.findings[0].evidence.map((e: { reason: string }) => e.reason)).toEqual(["version_in_range", "platform_unverifiable"]);
    expect(fw.limitations.join(" ")).toMatch(/platform/);
    const none = await a.req("PUT", `/api/v1/cve/identity/hardware/${ids.edge}`, a.admin, {
      vendor: "ui",
      product: "edgeos",
      version: null,
    });
    expect(none.status).toBe(200);
    const edge = (await assess("hardware", ids.edge!)).body;
    expect(edge).toMatchObject({ state: "partial", reason_code: "version_missing" });
    expect(findingIds(edge)).toEqual(["CVE-2021-22909"]);
    expect(edge.findings[0].evidence[0]).toMatchObject({ version_result: "unknown", reason: "version_missing" });
  });

  it("a DSM bound with a build suffix (7.1-42661) orders versions outside its window, not inside", async () => {
    const path = `/api/v1/cve/identity/hardware/${ids.nas}`;
    await a.req("PUT", path, a.admin, { vendor: "synology", product: "diskstation_manager", version: "7.0.1" });
    const old = (await assess("hardware", ids.nas!)).body;
    expect(old).toMatchObject({ state: "completed", identity: { version_scheme: "dotted_numeric" } });
    expect(findingIds(old)).toEqual(["CVE-2022-27624"]);
    await a.req("PUT", path, a.admin, { vendor: "synology", product: "diskstation_manager", version: "7.1.1" });
    const near = (await assess("hardware", ids.nas!)).body;
    expect(near).toMatchObject({ state: "partial", reason_code: "version_unsupported" });
    expect(findingIds(near)).toEqual(["CVE-2022-27624"]);
    await a.req("PUT", path, a.admin, { vendor: "synology", product: "diskstation_manager", version: "7.2" });
    expect(findingIds((await assess("hardware", ids.nas!)).body)).toEqual([]);
  });

  it("no identity is unassessed; another type is unassessed; a missing asset is 404", async () => {
    expect((await assess("service", ids.ownApp!)).body).toMatchObject({
      state: "unassessed",
      reason_code: "identity_missing",
      identity: null,
      completeness: "none",
      findings: [],
    });
    expect((await assess("compute_unit", ids.noOs!)).body).toMatchObject({ state: "unassessed", reason_code: "identity_missing" });
    expect((await assess("storage", 1)).body).toMatchObject({ state: "unassessed", reason_code: "identity_missing", identity: null });
    const missing = await assess("hardware", 999999);
    expect(missing.status).toBe(404);
    expect(missing.body.error_code).toBe("RESOURCE_NOT_FOUND");
    expect((await assess("hardware", "abc")).status).toBe(422);
  });
});

describe("operator identities", () => {
  it("PUT bumps the revision, GET shows it, DELETE falls back to the inventory's", async () => {
    const path = `/api/v1/cve/identity/service/${ids.nginxFixed}`;
    expect(await (await a.req("GET", path, a.viewer)).json()).toMatchObject({
      operator_set: false,
      identity: { vendor: "f5", product: "nginx", version: "1.20.1", provenance: "inventory" },
    });
    await a.req("PUT", path, a.admin, { vendor: "f5", product: "nginx", version: "1.19.0" });
    const second = await (await a.req("PUT", path, a.admin, { vendor: "f5", product: "nginx", version: "1.20.0" })).json();
    expect(second.identity).toMatchObject({ version: "1.20.0", revision: 2, provenance: "operator" });
    expect((await assess("service", ids.nginxFixed!)).body).toMatchObject({ identity_revision: 2 });
    expect(findingIds((await assess("service", ids.nginxFixed!)).body)).toEqual(["CVE-2021-23017"]);
    expect((await a.req("DELETE", path, a.admin)).status).toBe(204);
    expect(await (await a.req("GET", path, a.viewer)).json()).toMatchObject({
      operator_set: false,
      identity: { version: "1.20.1", provenance: "inventory" },
    });
    const audit = await a.t.sql`select action from audit_log where action like 'cve.identity%' order by id`;
    expect(audit.map((r) => r.action)).toEqual(expect.arrayContaining(["cve.identity_set", "cve.identity_removed"]));
  });

  it("refuses bad input and missing assets, and changes nothing", async () => {
    const path = `/api/v1/cve/identity/service/${ids.ssh96}`;
    for (const body of [
      { vendor: "", product: "x" },
      { vendor: "a:b", product: "x" },
      { product: "x" },
      { vendor: "a", product: "b", extra: 1 },
      { vendor: "a", product: "b", version: 5 },
    ]) {
      const res = await a.req("PUT", path, a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await a.req("PUT", `/api/v1/cve/identity/service/999999`, a.admin, { vendor: "a", product: "b" })).status).toBe(404);
    expect((await a.req("PUT", `/api/v1/cve/identity/storage/1`, a.admin, { vendor: "a", product: "b" })).status).toBe(422);
    expect((await a.req("PUT", path, a.viewer, { vendor: "a", product: "b" })).status).toBe(403);
    expect((await a.req("DELETE", path, a.editor)).status).toBe(403);
    expect(await (await a.req("GET", path, a.viewer)).json()).toMatchObject({ operator_set: false });
    expect(
      (await a.t.sql`select count(*)::int as n from asset_identities where entity_type = 'service' and entity_id = ${ids.ssh96!}`)[0]!.n,
    ).toBe(0);
  });
});

describe("alerts", () => {
  it("each certain finding of CVSS >= 7 was alerted once, with critical at >= 9", async () => {
    const alerts = await a.t.sql`select kind, severity, target_type, target_id, detail from notification_alerts where kind = 'cve.finding'`;
    const keys = alerts.map((r) => `${r.target_type}:${r.target_id}:${(r.detail as { cve_id: string }).cve_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain(`service:${ids.ssh96}:CVE-2024-6387`);
    expect(keys).toContain(`service:${ids.log4jOld}:CVE-2021-44228`);
    // Only possible (undecided) findings are not alerted.
    expect(keys).not.toContain(`service:${ids.ssh93p1}:CVE-2024-6387`);
    const log4j = alerts.find((r) => r.target_id === ids.log4jOld && (r.detail as { cve_id: string }).cve_id === "CVE-2021-44228")!;
    expect(log4j.severity).toBe("critical");
    const ssh = alerts.find((r) => r.target_id === ids.ssh96 && (r.detail as { cve_id: string }).cve_id === "CVE-2024-6387")!;
    expect(ssh.severity).toBe("warning");
  });

  it("a later sync alerts only what is new (the operator's nginx identity change above came after its sync)", async () => {
    const before = (await a.t.sql`select count(*)::int as n from notification_alerts where kind like 'cve.%'`)[0]!.n;
    await a.req("PUT", `/api/v1/cve/identity/service/${ids.log4jNew}`, a.admin, { vendor: "apache", product: "log4j", version: "2.14.0" });
    await sync();
    const fresh = await a.t.sql`select target_id, detail from notification_alerts where kind = 'cve.finding' order by id offset ${before}`;
    expect(fresh.map((r) => `${r.target_id}:${(r.detail as { cve_id: string }).cve_id}`).sort()).toEqual(
      [`${ids.log4jNew}:CVE-2021-44228`, `${ids.log4jNew}:CVE-2021-45046`].sort(),
    );
    await sync();
    expect((await a.t.sql`select count(*)::int as n from notification_alerts where kind like 'cve.%'`)[0]!.n).toBe(before + 2);
  });
});

describe("states and concurrency", () => {
  it("a sync already running (its lock held) is 409 and recorded as skipped", async () => {
    await a.t.sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtext('cve_sync_job'))`;
      const res = await a.req("POST", "/api/v1/cve/sync", a.admin);
      expect(res.status).toBe(409);
      const body = await res.json();
      expect(body).toMatchObject({ error_code: "CONFLICT", run_id: expect.any(Number) });
      const [run] = await a.t.sql`select outcome from job_runs where id = ${body.run_id}`;
      expect(run!.outcome).toBe("skipped");
    });
  });

  it("a feed whose last success is older than 7 days is stale, and so are its assessments", async () => {
    await a.t
      .sql`update cve_feed_state set completed_at = now() - interval '8 days', last_success_at = now() - interval '8 days', last_attempt_at = now() - interval '8 days'`;
    const status = await (await a.req("GET", "/api/v1/cve/status", a.viewer)).json();
    expect(status).toMatchObject({ state: "stale" });
    expect(status.age_seconds).toBeGreaterThan(7 * 86400);
    const { body } = await assess("service", ids.ssh96!);
    expect(body).toMatchObject({ state: "stale", reason_code: "feed_stale", completeness: "partial" });
    expect(findingIds(body)).toEqual(["CVE-2024-6387"]);
    expect(body.feed_age_seconds).toBeGreaterThan(7 * 86400);
  });
});

describe("the scheduled job", () => {
  it("syncs when the last attempt is older than the interval, then skips until it is due again", async () => {
    const res = await a.req("POST", "/api/v1/admin/jobs/cve_sync/run", a.admin);
    expect(res.status).toBe(200);
    const run = await res.json();
    expect(run).toMatchObject({ job: "cve_sync", outcome: "success", detail: { read: REAL + SYNTHETIC } });
    expect((await (await a.req("GET", "/api/v1/cve/status", a.viewer)).json()).state).toBe("ready");
    const again = await (await a.req("POST", "/api/v1/admin/jobs/cve_sync/run", a.admin)).json();
    expect(again).toMatchObject({ outcome: "success", detail: { skipped: "not due" } });
  });

  it("skips while cve_enabled is false", async () => {
    await settings({ cve_enabled: false });
    const run = await (await a.req("POST", "/api/v1/admin/jobs/cve_sync/run", a.admin)).json();
    expect(run).toMatchObject({ outcome: "success", detail: { skipped: "cve_enabled is false" } });
    expect((await (await a.req("GET", "/api/v1/cve/status", a.viewer)).json()).enabled).toBe(false);
  });
});
