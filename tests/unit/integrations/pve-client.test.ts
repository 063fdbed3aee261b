// The Proxmox VE client on its own: the token string and base URL rules, and its calls and errors
// against the fake Proxmox VE API (HTTPS on 127.0.44.8) through the real Node OutboundHttp.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeOutboundHttp } from "../../../net/outbound-http.ts";
import { DEFAULT_OUTBOUND_POLICY } from "../../../shared/domain/net/outbound-policy.ts";
import { parsePveToken, PveError, pveClient } from "../../../shared/verbs/integrations/hv/pve-client.ts";
import { normalisePveUrl } from "../../../shared/verbs/integrations/hv/pve-url.ts";
import { FAKE_PVE_CERT, FAKE_PVE_TOKEN, type FakePve, startFakePve } from "../../helpers/fake-pve.ts";

describe("parsePveToken", () => {
  it("splits user@realm!tokenid=secret, with or without the header's prefix", () => {
    expect(parsePveToken("root@pam!inventory=6f1c-aa")).toEqual({
      ok: true,
      value: { user: "root", realm: "pam", tokenid: "inventory", secret: "6f1c-aa" },
    });
    expect(parsePveToken(" PVEAPIToken=svc.inv@pve!ro-1=abc=def ")).toEqual({
      ok: true,
      value: { user: "svc.inv", realm: "pve", tokenid: "ro-1", secret: "abc=def" },
    });
  });
  it("refuses what is not a token, with the expected form in the message", () => {
    for (const bad of ["", "root@pam", "root@pam:secret", "root!inventory=x", "root@pam!inventory=", "root@pam!=x", "root@pam!inv=a b"]) {
      const r = parsePveToken(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/user@realm!tokenid=secret/);
    }
  });
});

describe("normalisePveUrl", () => {
  it("adds https and port 8006, strips trailing slashes and /api2/json, keeps an explicit port", () => {
    expect(normalisePveUrl("pve1.lan")).toEqual({ ok: true, value: "https://pve1.lan:8006" });
    expect(normalisePveUrl("https://10.0.0.5:8006/")).toEqual({ ok: true, value: "https://10.0.0.5:8006" });
    expect(normalisePveUrl("https://pve.example.org/api2/json/")).toEqual({ ok: true, value: "https://pve.example.org:8006" });
    expect(normalisePveUrl("https://pve.example.org:443")).toEqual({ ok: true, value: "https://pve.example.org:443" });
    expect(normalisePveUrl("http://[fd00::5]:8007")).toEqual({ ok: true, value: "http://[fd00::5]:8007" });
  });
  it("refuses other schemes, userinfo, paths and queries", () => {
    for (const bad of ["", "ftp://pve", "https://root:pw@pve", "https://pve/some/path", "https://pve?x=1"])
      expect(normalisePveUrl(bad).ok, bad).toBe(false);
  });
});

describe("pveClient against the fake", () => {
  let pve: FakePve;
  const outbound = nodeOutboundHttp();
  const policy = { ...DEFAULT_OUTBOUND_POLICY, allow_loopback: true };
  const client = (over: Partial<Parameters<typeof pveClient>[0]> = {}) =>
    pveClient({
      outbound,
      baseUrl: pve.url,
      token: FAKE_PVE_TOKEN,
      verifySsl: true,
      caPem: FAKE_PVE_CERT,
      policy,
      timeoutMs: 2000,
      ...over,
    });
  const failure = async (p: Promise<unknown>) => {
    const e = await p.then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(PveError);
    return e as PveError;
  };

  beforeAll(async () => {
    pve = await startFakePve({ host: "127.0.44.8" });
  });
  afterAll(() => pve?.close());

  it("answers the data of each call, trusting the cluster's certificate given as CA", async () => {
    const c = client();
    expect(await c.version()).toEqual({ version: "8.2.4", release: "8.2", repoid: "faa83925c9641325" });
    expect((await c.clusterStatus()).find((e) => e.type === "cluster")).toMatchObject({ name: "homelab", quorate: 1 });
    expect((await c.clusterResources("vm")).map((r) => r.id)).toEqual([
      "qemu/101",
      "qemu/102",
      "qemu/103",
      "qemu/9000",
      "lxc/200",
      "lxc/201",
      "lxc/202",
    ]);
    expect((await c.nodes()).map((n) => n.node)).toEqual(["pve1", "pve2", "pve3"]);
    expect((await c.guests("pve1", "lxc")).map((g) => g.vmid)).toEqual([200]);
    expect(await c.guestConfig("pve1", "qemu", 101)).toMatchObject({ name: "web", ipconfig0: "ip=192.168.10.101/24,gw=192.168.10.1" });
    expect((await c.network("pve1")).map((i) => i.iface)).toEqual(["eno1", "vmbr0", "vmbr1"]);
    expect((await c.storage("pve2")).map((s) => s.storage)).toEqual(["local", "local-lvm", "nas-nfs"]);
    expect((await c.rrddata("pve1")).length).toBe(2);
    expect((await c.clusterTasks())[0]).toMatchObject({ type: "qmstart", status: "OK" });
    expect(await c.guestAction("pve1", "qemu", 101, "shutdown")).toMatch(/^UPID:pve1:/);
    expect(pve.actions).toEqual([{ node: "pve1", type: "qemu", vmid: 101, action: "shutdown" }]);
    expect(pve.requests.at(-1)).toBe("POST /api2/json/nodes/pve1/qemu/101/status/shutdown");
  });

  it("a refused token, an untrusted certificate, an unknown guest and a slow cluster are clear PveErrors without the secret", async () => {
    const refused = await failure(client({ token: "root@pam!inventory=not-the-secret" }).version());
    expect(refused).toMatchObject({ code: "auth", status: 401 });
    expect(refused.message).toMatch(/API token was refused/);
    expect(refused.message).not.toContain("not-the-secret");

    const untrusted = await failure(client({ caPem: null }).version());
    expect(untrusted.code).toBe("tls");
    expect(untrusted.message).toMatch(/is not trusted .*verify_ssl off/);
    // verify_ssl off accepts the self-signed certificate.
    expect((await client({ caPem: null, verifySsl: false }).version()).release).toBe("8.2");

    const missing = await failure(client().guestConfig("pve1", "qemu", 999));
    expect(missing).toMatchObject({ code: "http", status: 500 });
    expect(missing.message).toMatch(/qemu-server\/999\.conf' does not exist/);
    const lxcReset = await failure(client().guestAction("pve1", "lxc", 200, "reset"));
    expect(lxcReset).toMatchObject({ code: "http", status: 501 });

    pve.delayMs = 800;
    try {
      const slow = await failure(client({ timeoutMs: 200 }).version());
      expect(slow.code).toBe("timeout");
      expect(slow.message).toMatch(/did not answer within 200 ms/);
    } finally {
      pve.delayMs = 0;
    }
  });

  it("refuses an unusable URL or token before any request, and loopback under the default policy", async () => {
    const asked = pve.requests.length;
    expect(() => client({ token: "root@pam:x" })).toThrow(PveError);
    expect(() => client({ baseUrl: "ftp://pve" })).toThrow(/https/);
    const refused = await failure(client({ policy: DEFAULT_OUTBOUND_POLICY }).version());
    expect(refused.code).toBe("refused");
    expect(pve.requests.length).toBe(asked);
  });
});
