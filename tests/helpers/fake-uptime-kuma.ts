// A fake Uptime Kuma on a 127.0.0.x address answering like 1.23 / 2.0 from the recordings in
// tests/fixtures/uptime-kuma/: the public status page and its heartbeats for one slug, and /metrics
// behind HTTP basic auth with the API key as the password. `state` is mutable so a test can change
// statuses between syncs, remove a monitor, slow the answers down (a timeout) or break them.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

const FIXTURES = join(import.meta.dirname, "../fixtures/uptime-kuma");
const read = (name: string) => readFileSync(join(FIXTURES, name), "utf8");

export const FAKE_KUMA_SLUG = "homelab";
export const FAKE_KUMA_KEY = "uk1_fakeKumaApiKeyForTests0123456789";

export interface FakeKumaState {
  statusPage: any;
  heartbeat: any;
  metrics: string;
  /** Milliseconds before answering (a timeout test). */
  delayMs: number;
  /** Answer every request with this instead (a bad answer). */
  garbage: { status: number; body: string } | null;
}

export interface FakeKuma {
  url: string;
  state: FakeKumaState;
  /** Requests seen: method, path, authorization header. */
  requests: { path: string; authorization: string | undefined }[];
  /** Sets monitor `id`'s latest heartbeat status (0 down, 1 up, 2 pending, 3 maintenance). */
  setStatus(id: number, status: number, at?: string): void;
  /** Takes monitor `id` off the status page. */
  removeMonitor(id: number): void;
  close(): Promise<void>;
}

export const recordedKumaState = (): FakeKumaState => ({
  statusPage: JSON.parse(read("status-page.json")),
  heartbeat: JSON.parse(read("heartbeat.json")),
  metrics: read("metrics.txt"),
  delayMs: 0,
  garbage: null,
});

export async function startFakeKuma(host = "127.0.0.21"): Promise<FakeKuma> {
  const state = recordedKumaState();
  const requests: FakeKuma["requests"] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    requests.push({ path, authorization: req.headers.authorization });
    const send = (status: number, body: string, type = "application/json; charset=utf-8") => {
      if (res.destroyed) return;
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    const answer = () => {
      if (state.garbage) return send(state.garbage.status, state.garbage.body, "text/html");
      if (path === `/api/status-page/${FAKE_KUMA_SLUG}`) return send(200, JSON.stringify(state.statusPage));
      if (path === `/api/status-page/heartbeat/${FAKE_KUMA_SLUG}`) return send(200, JSON.stringify(state.heartbeat));
      if (path.startsWith("/api/status-page/")) return send(404, JSON.stringify({ ok: false, msg: "Status Page Not Found" }));
      if (path === "/metrics") {
        const auth = req.headers.authorization ?? "";
        const password = auth.startsWith("Basic ")
          ? Buffer.from(auth.slice(6), "base64").toString("utf8").split(":").slice(1).join(":")
          : "";
        if (password !== FAKE_KUMA_KEY) {
          res.setHeader("www-authenticate", 'Basic realm="Uptime Kuma"');
          return send(401, "Unauthorized", "text/plain");
        }
        return send(200, state.metrics, "text/plain; version=0.0.4; charset=utf-8");
      }
      return send(404, "Not Found", "text/plain");
    };
    if (state.delayMs > 0) {
      const t = setTimeout(() => {
        timers.delete(t);
        answer();
      }, state.delayMs);
      timers.add(t);
    } else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    state,
    requests,
    setStatus(id, status, at = new Date().toISOString().replace("T", " ").replace("Z", "")) {
      const list = (state.heartbeat.heartbeatList[String(id)] ??= []);
      list.push({ status, time: at, msg: "", ping: status === 1 ? 10 : null });
    },
    removeMonitor(id) {
      for (const g of state.statusPage.publicGroupList) g.monitorList = g.monitorList.filter((m: { id: number }) => m.id !== id);
      delete state.heartbeat.heartbeatList[String(id)];
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
