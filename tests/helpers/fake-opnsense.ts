// A fake OPNsense API on a 127.0.0.x address replaying tests/fixtures/opnsense/ behind basic auth
// (key:secret). `state` switches it to a Kea firewall (no dhcpv4 module), an older firmware answer,
// or garbage; `state.answers` replaces the recording of a path (an ARP table of the test's own loopback
// hosts, say).
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

const FIXTURES = join(import.meta.dirname, "../fixtures/opnsense");
const read = (name: string) => readFileSync(join(FIXTURES, name), "utf8");

export const FAKE_OPNSENSE_KEY = "w86XNZob/8Oq8aC5r0kbNarNtdpoQU781fyoeaOBQsBwkXUt";
export const FAKE_OPNSENSE_SECRET = "XeD26XVrJ5ilAc/EmglCRC+0j2e57tRsjHwFepOseySWLM53pJASeTA3";

export interface FakeOpnsense {
  url: string;
  state: { kea: boolean; legacyFirmware: boolean; garbage: boolean; answers: Record<string, unknown> };
  requests: { path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

export async function startFakeOpnsense(host = "127.0.0.31"): Promise<FakeOpnsense> {
  const state: FakeOpnsense["state"] = { kea: false, legacyFirmware: false, garbage: false, answers: {} };
  const requests: FakeOpnsense["requests"] = [];
  const expected = `Basic ${Buffer.from(`${FAKE_OPNSENSE_KEY}:${FAKE_OPNSENSE_SECRET}`).toString("base64")}`;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    requests.push({ path, authorization: req.headers.authorization });
    const send = (status: number, body: string, type = "application/json; charset=UTF-8") => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    if (req.headers.authorization !== expected) return send(401, JSON.stringify({ status: 401, message: "Authentication Failed" }));
    if (state.garbage) return send(200, "<html>captive portal</html>", "text/html");
    if (req.method !== "GET") return send(405, "{}");
    if (path in state.answers) return send(200, JSON.stringify(state.answers[path]));
    if (path === "/api/core/firmware/status")
      return send(200, read(state.legacyFirmware ? "firmware-status-legacy.json" : "firmware-status.json"));
    if (path === "/api/diagnostics/interface/getArp") return send(200, read("get-arp.json"));
    if (path === "/api/dhcpv4/leases/searchLease" && !state.kea) return send(200, read("search-lease.json"));
    if (path === "/api/kea/leases4/search" && state.kea) return send(200, read("kea-leases4-search.json"));
    return send(404, JSON.stringify({ errorMessage: "Endpoint not found", errorTitle: "An error occurred" }));
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    state,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
