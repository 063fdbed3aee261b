// Issue 34: the `lab` command line run as a subprocess (node bin/lab.mjs, as `npx lab` runs it) against
// the real product started as the README says (`npm start`), on two fresh databases: login and
// contexts, the generic get/list/describe/create/edit/delete with their exit codes, a lab file applied,
// diffed (nothing left), pruned, exported, applied to the second server and compared.
import { execFile, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { freePort, jsonBody, killAll, type Product, REPO_ROOT, SETUP_TOKEN, startProduct, until } from "./helpers.ts";

const HOSTS = ["127.0.0.190", "127.0.0.191"] as const;
const home = mkdtempSync(join(tmpdir(), "lab-cli-"));
const dbs: TestDatabase[] = [];
const servers: Product[] = [];
const jwt: string[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with a home of its own (config and cache under it) and `env` added. */
function lab(args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(REPO_ROOT, "bin/lab.mjs"), ...args],
      {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: home,
          XDG_CONFIG_HOME: join(home, "config"),
          XDG_CACHE_HOME: join(home, "cache"),
          // The example lab's SMTP password comes from the environment, as the file says.
          LAB_SMTP_PASSWORD: "smtp secret",
          ...env,
        },
        timeout: 60_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

async function ok(args: string[], env: Record<string, string> = {}, input?: string): Promise<string> {
  const r = await lab(args, env, input);
  if (r.code !== 0) throw new Error(`lab ${args.join(" ")} exited ${r.code}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

beforeAll(async () => {
  for (const host of HOSTS) {
    const db = await createTestDatabase();
    dbs.push(db);
    const p = await startProduct({ DATABASE_URL: db.url, HOST: host, SVC_SETUP_TOKEN: SETUP_TOKEN }, 120_000);
    servers.push(p);
    const init = await p.fetch(
      "/api/v1/bootstrap/initialize",
      jsonBody({ email: "lab@example.com", password: "a long lab admin password", setup_token: SETUP_TOKEN }),
    );
    expect(init.status).toBe(200);
    jwt.push((await init.json()).token);
  }
}, 300_000);

afterAll(async () => {
  await killAll();
  for (const db of dbs) await db.drop();
  rmSync(home, { recursive: true, force: true });
});

describe("lab, the command line", () => {
  it("logs in with an API token it creates, keeps contexts in a 0600 file, and says who it is", async () => {
    // The first-run answer is a session token; the CLI makes itself an API token with it.
    await ok(["login", servers[0]!.url, "--token", jwt[0]!, "--name", "bootstrap"]);
    const token = (await ok(["token", "create", "--label", "lab cli test"])).trim();
    expect(token).toMatch(/^svc_/);
    expect(await ok(["login", servers[0]!.url, "--token-stdin", "--name", "a"], {}, `${token}\n`)).toContain('context "a"');
    await ok(["login", servers[1]!.url, "--token", jwt[1]!, "--name", "b"]);
    const file = join(home, "config", "lab", "config.yaml");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await ok(["contexts"])).toMatch(/\* b\s+http:\/\/127\.0\.0\.191/);
    await ok(["contexts", "use", "a"]);
    expect(await ok(["whoami"])).toContain("lab@example.com (admin, administrator)");
    expect(JSON.parse(await ok(["whoami", "-o", "json"])).scopes).toContain("admin:*");
    await ok(["logout", "bootstrap"]);
    expect(await ok(["contexts", "-o", "json"])).not.toContain("bootstrap");
  });

  it("creates, lists, gets, describes, edits and deletes any kind from the OpenAPI table", async () => {
    expect(await ok(["kinds"])).toMatch(/^hardware\s+\/api\/v1\/hardware\s+list get create edit delete$/m);
    const created = await ok(
      ["create", "hardware", "-f", "-"],
      {},
      "name: cli-host\nrole: hypervisor\nmemory_gb: 16\n---\nname: cli-spare\n",
    );
    expect(created).toMatch(/hardware \d+ \(cli-host\) created\nhardware \d+ \(cli-spare\) created/);
    const table = await ok(["list", "hardware"]);
    expect(table.split("\n")[0]).toMatch(/^ID\s+NAME\s+STATUS/);
    expect(table).toContain("cli-spare");
    expect(await ok(["list", "hardware", "--filter", "role=hypervisor", "-o", "name"])).toBe("cli-host\n");
    expect(JSON.parse(await ok(["get", "hardware", "cli-host", "-o", "json"]))).toMatchObject({ name: "cli-host", memory_gb: 16 });
    expect(await ok(["get", "hardware", "cli-host", "--jq", ".name,.memory_gb"])).toBe("cli-host\n16\n");
    expect(await ok(["describe", "hardware", "cli-host"])).toMatch(/^# hardware \d+ \(ETag .+\)\nid: \d+\nname: cli-host\n/);

    // $EDITOR: a script that changes one line; the write goes with If-Match.
    const editor = join(home, "editor.mjs");
    writeFileSync(
      editor,
      `import { readFileSync, writeFileSync } from "node:fs";
const file = process.argv[2];
if (process.env.BUMP_URL) {
  const res = await fetch(process.env.BUMP_URL, { method: "PATCH", headers: { authorization: "Bearer " + process.env.BUMP_TOKEN, "content-type": "application/json" }, body: JSON.stringify({ notes: "changed meanwhile" }) });
  if (res.status !== 200) process.exit(9);
}
writeFileSync(file, readFileSync(file, "utf8").replace(/^memory_gb: .*$/m, "memory_gb: " + process.env.NEW_MEMORY));
`,
    );
    chmodSync(editor, 0o700);
    const EDITOR = `${process.execPath} ${editor}`;
    expect(await ok(["edit", "hardware", "cli-host"], { EDITOR, NEW_MEMORY: "32" })).toMatch(/hardware \d+ changed \(memory_gb\)/);
    expect(await ok(["get", "hardware", "cli-host", "--jq", ".memory_gb"])).toBe("32\n");
    // Someone else saves while the editor is open: 412, explained, nothing overwritten.
    const id = (await ok(["get", "hardware", "cli-host", "--jq", ".id"])).trim();
    const raced = await lab(["edit", "hardware", "cli-host"], {
      EDITOR,
      NEW_MEMORY: "48",
      BUMP_URL: `${servers[0]!.url}/api/v1/hardware/${id}`,
      BUMP_TOKEN: jwt[0]!,
    });
    expect(raced.code).toBe(3);
    expect(raced.stderr).toMatch(/^lab: 412 PRECONDITION_FAILED: .*changed by someone else/);
    expect(raced.stderr.trim().split("\n")).toHaveLength(1);
    expect(await ok(["get", "hardware", "cli-host", "--jq", ".memory_gb,.notes"])).toBe("32\nchanged meanwhile\n");

    expect(await ok(["delete", "hardware", "cli-spare"])).toMatch(/hardware \d+ \(cli-spare\) deleted/);
    const gone = await lab(["get", "hardware", "cli-spare"]);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toContain('no hardware with name "cli-spare"');
  });

  it("exits 2 for usage, 3 for refusals (with the 422's field names), 5 when the server cannot be reached", async () => {
    const unknown = await lab(["list", "gadgets"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('lab: unknown kind "gadgets" (see `lab kinds`)\n');
    expect((await lab(["list"])).code).toBe(2);
    expect((await lab(["get", "hardware", "x", "-o", "xml"])).code).toBe(2);
    expect((await lab(["list", "hardware", "--filter", "colour=red"])).stderr).toMatch(/hardware lists filter by status, role/);
    const invalid = await lab(["create", "hardware", "-f", "-"], {}, '{"name": "", "memory_gb": -1}');
    expect(invalid.code).toBe(3);
    expect(invalid.stderr).toMatch(/^lab: 422 VALIDATION_ERROR: .*\[name: .*; memory_gb: .*\]\n$/);
    const port = await freePort();
    const down = await lab(["list", "hardware"], { LAB_URL: `http://127.0.0.192:${port}`, LAB_TOKEN: "svc_x_y" });
    expect(down.code).toBe(5);
    expect(down.stderr).toMatch(/^lab: cannot reach http:\/\/127\.0\.0\.192:\d+: ECONNREFUSED\n$/);
    const noLogin = await lab(["whoami"], { XDG_CONFIG_HOME: join(home, "nowhere") });
    expect(noLogin.code).toBe(2);
  });

  it("shows monitor states live from the event stream, acknowledges, scans with --wait, downloads a backup", async () => {
    await ok(
      ["create", "monitors", "-f", "-"],
      {},
      `name: self\ncheck_type: tcp\nhost: ${HOSTS[0]}\nconfig: {port: ${servers[0]!.port}}\n`,
    );
    await until(
      "the monitor to be checked",
      async () => ((await ok(["get", "monitors", "self", "--jq", ".status"])) === "up\n" ? true : undefined),
      30_000,
      () => "",
      250, // each probe is a CLI process
    );
    expect(await ok(["monitors", "status", "--no-watch"])).toMatch(/^ID\s+NAME\s+STATUS[\s\S]*\bself\s+up\s+tcp[\s\S]*\nup: 1\n$/);
    // Live: a monitor created while the view is open appears without a restart of the view.
    const child = spawn(process.execPath, [join(REPO_ROOT, "bin/lab.mjs"), "monitors", "status", "--watch"], {
      env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_CACHE_HOME: join(home, "cache") },
    });
    let screen = "";
    child.stdout.on("data", (d: Buffer) => (screen += d.toString()));
    try {
      await until(
        "the first view",
        () => (screen.includes("self") ? true : undefined),
        30_000,
        () => screen,
      );
      await ok(
        ["create", "monitors", "-f", "-"],
        {},
        `name: second\ncheck_type: tcp\nhost: ${HOSTS[0]}\nconfig: {port: ${servers[0]!.port}}\n`,
      );
      await until(
        "the view redrawn with the new monitor",
        () => (screen.includes("second") ? true : undefined),
        30_000,
        () => screen,
      );
    } finally {
      child.kill();
    }
    const ack = await lab(["alerts", "ack", "999999"]);
    expect(ack.code).toBe(3);
    expect(ack.stderr).toBe("lab: 404 RESOURCE_NOT_FOUND: Alert 999999 was not found.\n");
    const scan = await lab(["discovery", "scan", `${HOSTS[0]}/32`, "--wait", "--type", "tcp", "--ports", "web"]);
    expect(scan.code, scan.stderr).toBe(0);
    expect(scan.stdout).toMatch(/^discovery job \d+ completed: \d+ hosts found/);
    expect(scan.stderr).toMatch(/job \d+ completed\s+\[#+\] 100% 1\/1 addresses/);
    const archive = join(home, "backup.gz");
    expect(await ok(["backup", "create", "--download", archive])).toMatch(/^backup \S+ verified \(sha256 [0-9a-f]{64}\)\n$/);
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    expect(readFileSync(archive).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it("completes kinds and names from the server", async () => {
    expect(await ok(["completion", "bash"])).toContain("complete -o default -F _lab_complete lab");
    expect(await ok(["completion", "fish"])).toContain("complete -c lab");
    expect(await ok(["completion", "zsh"])).toContain("compdef _lab_complete lab");
    expect((await ok(["__complete", "get", "hardw"])).split("\n")).toContain("hardware");
    expect(await ok(["__complete", "get", "hardware", "cli-h"])).toBe("cli-host\n");
  });
});

describe("configuration as code", () => {
  // The example with its private addresses moved onto loopback: its monitors run, and tests talk only to 127/8.
  const example = join(home, "lab-example.yaml");
  writeFileSync(example, readFileSync(join(REPO_ROOT, "examples/lab.yaml"), "utf8").replaceAll("192.168.50.", "127.0.50."));

  it("applies the example lab in one go, and a second apply and the diff find nothing to do", async () => {
    const diff = await ok(["diff", "-f", example]);
    expect(diff).toContain("+ hardware/pve-1");
    expect(diff).toContain("+ services/wiki");
    expect(diff).toContain("+ monitors/nas-1 ping");
    expect(diff).toContain("+ alert_routes/critical-to-mail");
    const applied = await ok(["apply", "-f", example]);
    expect(applied).toMatch(/Applied: 15 created, 0 changed, 0 deleted, 0 unchanged/);
    expect(await ok(["diff", "-f", example])).toBe("No changes.\n");
    expect(await ok(["apply", "-f", example])).toMatch(/Applied: 0 created, 0 changed, 0 deleted, 15 unchanged/);
    const wiki = JSON.parse(await ok(["get", "services", "Wiki", "-o", "json"]));
    expect(wiki.url).toBe("https://wiki.home.example");
    const deps = await servers[0]!.fetch(`/api/v1/services/${wiki.id}/dependencies`, { headers: { authorization: `Bearer ${jwt[0]}` } });
    expect(JSON.stringify(await deps.json())).toContain("Postgres");
  });

  it("shows a change field by field, and prunes only what the file owns", async () => {
    const text = readFileSync(example, "utf8");
    const dir = mkdtempSync(join(home, "lab-"));
    // nas-1 gets more memory; the storage pool leaves the file; a note comes from the environment.
    const changed = text
      .replace("memory_gb: 32", `memory_gb: 48\n    notes: \${env:NAS_NOTE}`)
      .replace(/storage:\n(?: {2}.*\n| {4}.*\n)+\n/, "");
    writeFileSync(join(dir, "lab.yaml"), changed);
    const diff = await ok(["diff", "-f", dir, "--prune"], { NAS_NOTE: "from the environment" });
    expect(diff).toBe(
      "~ hardware/nas-1\n    memory_gb: 32 → 48\n    notes: null → from the environment\n- storage/tank\n\n0 to create, 1 to change, 1 to delete, 13 unchanged\n",
    );
    // Without --prune the pool stays; with it, it goes, and cli-host (made with `lab create`) stays.
    expect(await ok(["apply", "-f", dir], { NAS_NOTE: "from the environment" })).toMatch(/1 changed, 0 deleted/);
    expect(await ok(["list", "storage", "-o", "name"])).toBe("tank\n");
    expect(await ok(["apply", "-f", dir, "--prune"], { NAS_NOTE: "from the environment" })).toMatch(/0 changed, 1 deleted/);
    expect(await ok(["list", "storage", "-o", "name"])).toBe("");
    expect(await ok(["list", "hardware", "-o", "name"])).toContain("cli-host");
    const missing = await lab(["diff", "-f", dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/lab\.yaml:\d+: hardware\.notes: the environment variable NAS_NOTE is not set/);
    // Put the example back for the round trip.
    expect(await ok(["apply", "-f", example])).toMatch(/1 created, 1 changed/);
  });

  it("refuses a bad file before sending anything, naming file, line and field", async () => {
    const file = join(home, "bad.yaml");
    writeFileSync(file, "gadgets:\n  - name: x\nhardware:\n  - name: h1\n    colour: red\n    site: nowhere\n  - name: h1\n");
    const r = await lab(["apply", "-f", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:1: unknown kind "gadgets"`);
    expect(r.stderr).toContain(`${file}:5: hardware: unknown field "colour"`);
    expect(r.stderr).toContain(`${file}:6: hardware/h1: site names sites/nowhere, which no file describes`);
    expect(r.stderr).toContain(`${file}:7: hardware/h1 is described twice (first at ${file}:4)`);
    expect(await ok(["list", "hardware", "-o", "name"])).not.toContain("h1");
    // The server refuses a value: every refused object with its line, and nothing changed.
    writeFileSync(file, "hardware:\n  - name: h2\n    memory_gb: -5\n  - name: h3\n");
    const refused = await lab(["apply", "-f", file]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(new RegExp(`${file}:3: hardware/h2 memory_gb: `));
    expect(await ok(["list", "hardware", "-o", "name"])).not.toContain("h3");
  });

  it("exports the lab, applies the export to a second fresh server and gets the same export back", async () => {
    const exported = join(home, "export-a.yaml");
    await ok(["export", "-o", "yaml", "--file", exported]);
    const a = readFileSync(exported, "utf8");
    expect(a).toContain("name: pve-1");
    expect(a).toContain("depends_on:\n      - Postgres");
    // Secrets leave only as placeholders: the second server gets the password from the environment.
    expect(a).not.toContain("smtp secret");
    expect(a).toContain(`smtp_password: \${env:NOTIFICATION_SINKS_OPS_MAIL_SMTP_PASSWORD}`);
    expect(a).toContain("target: hardware/nas-1");
    const secret = { NOTIFICATION_SINKS_OPS_MAIL_SMTP_PASSWORD: "smtp secret" };
    const applied = await ok(["apply", "-f", exported, "--context", "b"], secret);
    expect(applied).toMatch(/Applied: \d+ created, 0 changed, 0 deleted, 0 unchanged/);
    expect(await ok(["diff", "-f", exported, "--context", "b"], secret)).toBe("No changes.\n");
    const b = await ok(["export", "-o", "yaml", "--context", "b"]);
    const body = (s: string) => s.split("\n").slice(1).join("\n");
    expect(body(b)).toBe(body(a));
  });
});
