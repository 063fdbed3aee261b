// A real `ansible-inventory` (Debian's ansible-core) reading the control plane through the shipped
// scripts/ansible-inventory.sh and Ansible's built-in script inventory plugin, against the real server
// on loopback (docs/service-discovery.md): the groups and host vars Ansible ends up with are ours.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ServerType, serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { findDebianCommand } from "../../helpers/debian-command.ts";
import { populateSdLab, type SdLab, scopedToken } from "./lab.ts";

const SCRIPT = fileURLToPath(new URL("../../../scripts/ansible-inventory.sh", import.meta.url));

let a: Actors;
let lab: SdLab;
let server: ServerType;
let base: string;
let dir: string;
let token: string;

/** Runs a command without blocking this process (the server answering it runs here), 60 s at most. */
function run(command: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr });
    });
  });
}

function ansibleEnv(extra: Record<string, string>): Record<string, string> {
  // Ansible writes under HOME (~/.ansible); keep it in the test's temp dir, and its output plain.
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    ANSIBLE_LOCAL_TEMP: join(dir, "tmp"),
    ANSIBLE_NOCOLOR: "1",
    ANSIBLE_INVENTORY_UNPARSED_FAILED: "1",
    SVC_URL: base,
    ...extra,
  };
}

beforeAll(async () => {
  findDebianCommand("ansible-inventory", "ansible-core");
  dir = mkdtempSync(join(tmpdir(), "sd-ansible-"));
  a = await createActors();
  lab = await populateSdLab(a.t.sql);
  token = await scopedToken(a, ["read:ansible-inventory"]);
  server = serve({ fetch: a.t.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (server) await new Promise((r) => server.close(r));
  await a?.t.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("ansible-inventory -i scripts/ansible-inventory.sh", () => {
  it("is clean POSIX sh (shellcheck)", async () => {
    const r = await run(findDebianCommand("shellcheck", "shellcheck"), ["-s", "sh", SCRIPT], { PATH: process.env.PATH ?? "" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  it("lists our groups and host vars", async () => {
    const tokenFile = join(dir, "token");
    writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    const r = await run("ansible-inventory", ["-i", SCRIPT, "--list"], ansibleEnv({ SVC_TOKEN_FILE: tokenFile }));
    expect(r.code, r.stderr).toBe(0);
    // Ansible warns about group names it had to change; ours follow its rules already.
    expect(r.stderr).not.toMatch(/invalid characters|Unable to parse/i);
    const inv = JSON.parse(r.stdout);
    const container = `container_${lab.container}`;
    expect(inv.all.children).toEqual(
      expect.arrayContaining(["site_berlin_dc_1", "role_hypervisor", "env_prod", "tag_web_tier", "type_vm", "type_container"]),
    );
    expect(inv.site_berlin_dc_1.hosts.sort()).toEqual([container, "node-a", "web-1"]);
    expect(inv.role_hypervisor.hosts).toEqual(["node-a"]);
    expect(inv.tag_web.hosts).toEqual(["web-1"]);
    expect(inv.type_container.hosts).toEqual([container]);
    expect(inv._meta.hostvars["node-a"]).toMatchObject({
      ansible_host: "127.0.0.1",
      svc_kind: "hardware",
      svc_id: lab.nodeA,
      svc_role: "Hypervisor",
      svc_site: "Berlin DC-1",
      svc_tags: ["critical", "web tier"],
      svc_custom_fields: {},
    });
    expect(inv._meta.hostvars["web-1"]).toMatchObject({ ansible_host: "127.0.0.2", svc_kind: "vm", svc_host: "node-a" });
    expect(inv._meta.hostvars[container]).toMatchObject({ ansible_host: "fd00::12", svc_name: "Cache Box" });
  });

  it("passes filters through SVC_SD_QUERY, and answers one host's vars", async () => {
    const env = ansibleEnv({ SVC_TOKEN: token, SVC_SD_QUERY: "kind=vm" });
    const list = await run("ansible-inventory", ["-i", SCRIPT, "--list"], env);
    expect(list.code, list.stderr).toBe(0);
    expect(Object.keys(JSON.parse(list.stdout)._meta.hostvars)).toEqual(["web-1"]);
    const host = await run("ansible-inventory", ["-i", SCRIPT, "--host", "web-1"], env);
    expect(host.code, host.stderr).toBe(0);
    expect(JSON.parse(host.stdout)).toMatchObject({ ansible_host: "127.0.0.2", svc_os: "debian", svc_environment: "prod" });
  });

  it("fails, saying why, for a token without the scope", async () => {
    const other = await scopedToken(a, ["read:prometheus-sd"]);
    const r = await run("ansible-inventory", ["-i", SCRIPT, "--list"], ansibleEnv({ SVC_TOKEN: other }));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("read:ansible-inventory");
  });
});
