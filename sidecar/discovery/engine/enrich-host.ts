// What more a live host tells: its reverse DNS name (dns), per open port a banner and TLS certificate
// (banner) and a web page title (http), and its MAC from the neighbour table (arp). Ports run in
// parallel, each operation holding one socket of the budget, all under the host's clock.
import type { HostFinding, OpenPort } from "../../../shared/domain/discovery/finding.ts";
import { grabBanner, serviceFromBanner } from "../../../net/banner.ts";
import { httpTitle } from "../../../net/http-title.ts";
import { reverseDns } from "../../../net/reverse-dns.ts";
import { tlsCert } from "../../../net/tls-cert.ts";
import { type EngineContext, type HostClock, slot } from "./context.ts";
import { has, HTTP_PORTS, TLS_PORTS } from "./plan.ts";

const DNS_CAP_MS = 2000;
const GRAB_CAP_MS = 3000;

function addSource(f: HostFinding, source: string): void {
  if (!f.sources.includes(source)) f.sources.push(source);
}

async function enrichPort(ctx: EngineContext, f: HostFinding, port: OpenPort, clock: HostClock): Promise<void> {
  const ip = f.ip_address;
  const { plan } = ctx;
  let tls: boolean | null = null;
  // nmap names web services http, https, http-proxy, http-alt...
  let httpSeen = HTTP_PORTS.has(port.port) || (port.service?.startsWith("http") ?? false);
  const cert = () =>
    slot(ctx, clock.signal, null, () => tlsCert(ip, port.port, { timeoutMs: clock.budget(GRAB_CAP_MS), signal: clock.signal }));
  if (has(plan, "banner")) {
    // A TLS port answers nothing in clear text, so its handshake comes first.
    const tryTlsFirst = TLS_PORTS.has(port.port);
    let info = tryTlsFirst ? await cert() : null;
    if (!info) {
      const b = await slot(ctx, clock.signal, null, () =>
        grabBanner(ip, port.port, { timeoutMs: clock.budget(GRAB_CAP_MS), windowMs: ctx.bannerWindowMs, signal: clock.signal }),
      );
      if (b?.banner) {
        port.banner = b.banner;
        port.service ??= serviceFromBanner(b);
        if (b.server) port.server = b.server;
        httpSeen ||= b.http;
        tls = false;
        addSource(f, "banner");
      } else if (!tryTlsFirst && !clock.signal.aborted) {
        info = await cert();
      }
    }
    if (info) {
      port.tls = info;
      tls = true;
      addSource(f, "tls");
    } else if (tryTlsFirst && tls === null) {
      tls = false;
    }
  }
  if (has(plan, "http") && (httpSeen || port.tls) && !clock.signal.aborted) {
    const useTls = tls ?? TLS_PORTS.has(port.port);
    const page = await slot(ctx, clock.signal, null, () =>
      httpTitle(ip, port.port, { tls: useTls, timeoutMs: clock.budget(GRAB_CAP_MS), signal: clock.signal }),
    );
    if (page) {
      port.http_title = page.title;
      if (!port.service || port.service === "http") port.service = useTls ? "https" : "http";
      if (!port.banner && page.server) port.banner = page.server;
      if (page.server) port.server = page.server;
      addSource(f, "http");
    }
  }
}

/** Fills `f` in place; `probedAt` is when its probes ended (the neighbour table must be read after it). */
export async function enrichHost(ctx: EngineContext, f: HostFinding, clock: HostClock, probedAt: number): Promise<void> {
  const { plan } = ctx;
  const dns =
    has(plan, "dns") && !f.hostname
      ? slot(ctx, clock.signal, null, () =>
          reverseDns(f.ip_address, { timeoutMs: clock.budget(DNS_CAP_MS), signal: clock.signal, servers: ctx.dnsServers }),
        )
      : Promise.resolve(null);
  const grabs = has(plan, "banner") || has(plan, "http") ? f.open_ports.map((p) => enrichPort(ctx, f, p, clock)) : [];
  const [name] = await Promise.all([dns, Promise.all(grabs)]);
  if (name) {
    f.hostname = name;
    addSource(f, "dns");
  }
  if (has(plan, "arp") && !f.mac_address) {
    const mac = (await ctx.neighbours.after(probedAt)).get(f.ip_address);
    if (mac) {
      f.mac_address = mac;
      addSource(f, "arp");
    }
  }
}
