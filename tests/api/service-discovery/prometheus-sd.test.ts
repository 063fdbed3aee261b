// A real Prometheus (Debian's prometheus) discovering its targets from GET /api/v1/sd/prometheus through
// http_sd_configs with a bearer token, and scraping the one it finds: a tiny exporter on loopback
// started here (docs/service-discovery.md). Prometheus's own API says the target was discovered with
// our labels, relabelled as the docs show, and is up; the exporter says it was scraped.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { type Prometheus, startPrometheus } from "../../helpers/prometheus.ts";
import { populateSdLab, type SdLab, scopedToken } from "./lab.ts";

interface ActiveTarget {
  discoveredLabels: Record<string, string>;
  labels: Record<string, string>;
  scrapePool: string;
  scrapeUrl: string;
  health: "up" | "down" | "unknown";
  lastError: string;
}

// The service "web" runs on VM web-1, whose address is 127.0.0.2 (tests/api/service-discovery/lab.ts).
const EXPORTER_HOST = "127.0.0.2";

let a: Actors;
let lab: SdLab;
let server: ServerType;
let exporter: Server;
let exporterPort: number;
let scrapes = 0;
let prometheus: Prometheus | undefined;

beforeAll(async () => {
  exporter = createServer((req, res) => {
    if (req.url !== "/metrics") return void res.writeHead(404).end();
    scrapes++;
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end("# TYPE sd_exporter_up gauge\nsd_exporter_up 1\n");
  });
  await new Promise<void>((r) => exporter.listen(0, EXPORTER_HOST, r));
  exporterPort = (exporter.address() as AddressInfo).port;
  a = await createActors();
  lab = await populateSdLab(a.t.sql, exporterPort);
  const token = await scopedToken(a, ["read:prometheus-sd"]);
  server = serve({ fetch: a.t.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Only the web service's metrics port: the lab's other ports are not on loopback or not listening.
  prometheus = await startPrometheus(
    (dir) => `global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: inventory
    http_sd_configs:
      - url: "${base}/api/v1/sd/prometheus?tag=web&port_label=metrics"
        refresh_interval: 1s
        authorization:
          type: Bearer
          credentials_file: ${dir}/token
    relabel_configs:
      - action: labelmap
        regex: __meta_svc_(.+)
`,
    { token },
  );
});
afterAll(async () => {
  await prometheus?.stop();
  if (server) await new Promise((r) => server.close(r));
  if (exporter) await new Promise((r) => exporter.close(r));
  await a?.t.close();
});

/** The job's active targets once one is up, polled every 250 ms for 60 s at most. */
async function upTargets(p: Prometheus): Promise<ActiveTarget[]> {
  let last: ActiveTarget[] = [];
  for (let i = 0; i < 240; i++) {
    const body = (await (await fetch(`${p.url}/api/v1/targets?state=active`)).json()) as { data: { activeTargets: ActiveTarget[] } };
    last = body.data.activeTargets.filter((t) => t.scrapePool === "inventory");
    if (last.some((t) => t.health === "up")) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no target of ours was up within 60 s: ${JSON.stringify(last)}\n${p.log().slice(-2000)}`);
}

describe("prometheus http_sd_configs against /api/v1/sd/prometheus", () => {
  it("discovers the exporter with our labels and scrapes it", async () => {
    const targets = await upTargets(prometheus!);
    expect(targets).toHaveLength(1);
    const [t] = targets;
    expect(t!.scrapeUrl).toBe(`http://${EXPORTER_HOST}:${exporterPort}/metrics`);
    expect(t!.discoveredLabels).toMatchObject({
      __address__: `${EXPORTER_HOST}:${exporterPort}`,
      __meta_svc_service_name: "web",
      __meta_svc_host_name: "web-1",
      __meta_svc_host_kind: "vm",
      __meta_svc_site_id: String(lab.siteId),
      __meta_svc_port_label: "metrics",
      __meta_svc_tags: ",critical,web,",
    });
    expect(t!.labels).toMatchObject({
      job: "inventory",
      instance: `${EXPORTER_HOST}:${exporterPort}`,
      service_name: "web",
      environment: "prod",
      site: "Berlin DC-1",
      host_name: "web-1",
    });
    expect(t!.lastError).toBe("");
    expect(scrapes).toBeGreaterThan(0);
  });
});
