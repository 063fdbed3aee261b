// A fake Cloudflare v4 API on a 127.0.0.x address replaying tests/fixtures/cloudflare/ (the documented
// answer shapes) behind a Bearer token. It holds zones and their TXT records; a zone that `publishes`
// forwards its records to pebble-challtestsrv's management API (POST /set-txt {host, value}, /clear-txt
// {host}), so Pebble's DNS answers what was created here, as Cloudflare's name servers would.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

const FIXTURES = join(import.meta.dirname, "../fixtures/cloudflare");
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), "utf8")) as Record<string, unknown> & { result: unknown };

export const FAKE_CLOUDFLARE_TOKEN = "Yx2m1JbXgS0q3kQwvT7c9rLpA4hE8nUdZf6oKiWs";

export interface FakeZone {
  name: string;
  /** Forward records to challtestsrv (false: a zone whose records never reach the CA's resolver). */
  publishes: boolean;
  name_servers: string[];
}

export interface FakeCloudflare {
  url: string;
  /** TXT records currently held, by name. */
  records(): { name: string; content: string }[];
  requests: { method: string; path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

export async function startFakeCloudflare(opts: { host: string; challtestsrv: string; zones: FakeZone[] }): Promise<FakeCloudflare> {
  const zones = opts.zones.map((z, i) => ({ ...z, id: `${(i + 1).toString(16).padStart(3, "0")}e105f4ecef8ad9ca31a8372d0c353` }));
  const records = new Map<string, { zoneId: string; name: string; content: string }>();
  const requests: FakeCloudflare["requests"] = [];
  let nextRecord = 1;
  const challtestsrv = async (path: string, body: object) => {
    const res = await fetch(`http://${opts.challtestsrv}${path}`, {
      method: "POST",
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(3000),
    });
    if (!res.ok) throw new Error(`challtestsrv ${path}: ${res.status}`);
  };
  /** Makes challtestsrv hold exactly the records of a published name. */
  const sync = async (zoneId: string, name: string) => {
    const zone = zones.find((z) => z.id === zoneId)!;
    if (!zone.publishes) return;
    await challtestsrv("/clear-txt", { host: `${name}.` });
    for (const r of records.values()) if (r.name === name) await challtestsrv("/set-txt", { host: `${name}.`, value: r.content });
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    requests.push({ method: req.method ?? "GET", path: url.pathname + url.search, authorization: req.headers.authorization });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      void (async () => {
        if (req.headers.authorization !== `Bearer ${FAKE_CLOUDFLARE_TOKEN}`) return send(401, fixture("error-401.json"));
        const parts = url.pathname
          .replace(/^\/client\/v4/, "")
          .split("/")
          .filter(Boolean);
        if (req.method === "GET" && parts.length === 1 && parts[0] === "zones") {
          const name = url.searchParams.get("name");
          const found = zones.filter((z) => z.name === name);
          if (!found.length) return send(200, fixture("zones-list-empty.json"));
          const answer = fixture("zones-list.json");
          const template = (answer.result as Record<string, unknown>[])[0]!;
          answer.result = found.map((z) => ({ ...template, id: z.id, name: z.name, name_servers: z.name_servers }));
          return send(200, answer);
        }
        const zone = parts[0] === "zones" ? zones.find((z) => z.id === parts[1]) : undefined;
        if (!zone || parts[2] !== "dns_records")
          return send(404, {
            success: false,
            errors: [{ code: 7003, message: "Could not route to /zones, perhaps your object identifier is invalid?" }],
            messages: [],
            result: null,
          });
        if (req.method === "POST" && parts.length === 3) {
          const body = JSON.parse(raw) as { type: string; name: string; content: string; ttl: number };
          const id = `${(nextRecord++).toString(16).padStart(4, "0")}67954025e0ba6aaa6d586b9e0b59`;
          records.set(id, { zoneId: zone.id, name: body.name, content: body.content });
          await sync(zone.id, body.name);
          const answer = fixture("dns-record-create.json");
          answer.result = { ...(answer.result as object), id, name: body.name, content: body.content, ttl: body.ttl };
          return send(200, answer);
        }
        if (req.method === "GET" && parts.length === 3) {
          const answer = fixture("dns-records-list.json");
          const template = (answer.result as Record<string, unknown>[])[0]!;
          answer.result = [...records]
            .filter(([, r]) => r.zoneId === zone.id && r.name === url.searchParams.get("name"))
            .map(([id, r]) => ({ ...template, id, name: r.name, content: r.content }));
          return send(200, answer);
        }
        if (req.method === "DELETE" && parts.length === 4) {
          const record = records.get(parts[3]!);
          if (!record || record.zoneId !== zone.id) return send(404, fixture("error-404-record.json"));
          records.delete(parts[3]!);
          await sync(zone.id, record.name);
          const answer = fixture("dns-record-delete.json");
          answer.result = { id: parts[3] };
          return send(200, answer);
        }
        return send(405, { success: false, errors: [{ code: 10405, message: "Method not allowed" }], messages: [], result: null });
      })().catch((err: unknown) =>
        send(500, { success: false, errors: [{ code: 500, message: String(err) }], messages: [], result: null }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, opts.host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host}:${port}/client/v4`,
    records: () => [...records.values()].map(({ name, content }) => ({ name, content })),
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
