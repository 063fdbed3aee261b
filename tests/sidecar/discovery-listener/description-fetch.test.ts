// The listener's device-description fetch (issue 28 item 1): only a LOCATION inside the discovery's allowed
// targets, naming the announcer itself, under the outbound policy, with a size cap and a timeout. A real HTTP
// server on loopback counts what reaches it.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OUTBOUND_POLICY } from "../../../shared/domain/net/outbound-policy.ts";
import { descriptionFetcher } from "../../../net/listener/description-fetch.ts";
import { nodeOutboundHttp } from "../../../net/outbound-http.ts";

const HOST = "127.0.0.61";
const XML = "<root><device><manufacturer>Acme</manufacturer></device></root>";
let server: Server;
let port = 0;
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.url === "/big.xml") res.end("x".repeat(70 * 1024));
    else if (req.url === "/silent.xml")
      return; // never answers
    else res.end(XML);
  });
  await new Promise<void>((r) => server.listen(0, HOST, r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const fetcher = (allowLoopback: boolean, allowed: (ip: string) => boolean = (ip) => ip === HOST) =>
  descriptionFetcher({
    outbound: nodeOutboundHttp(),
    policy: async () => ({ ...DEFAULT_OUTBOUND_POLICY, allow_loopback: allowLoopback }),
    allowed,
  });
const url = (path: string) => new URL(`http://${HOST}:${port}${path}`);

describe("description fetch", () => {
  it("fetches an allowed announcer's description when the outbound policy permits its address", async () => {
    expect(await fetcher(true)(url("/rootDesc.xml"), HOST)).toEqual({ ok: true, xml: XML });
  });

  it("refuses, without a request, an address outside the allowed targets or another host than the announcer", async () => {
    const before = hits;
    expect(await fetcher(true, () => false)(url("/rootDesc.xml"), HOST)).toMatchObject({
      ok: false,
      refused: true,
      reason: expect.stringContaining("allowed targets"),
    });
    expect(await fetcher(true)(url("/rootDesc.xml"), "127.0.0.62")).toMatchObject({
      ok: false,
      refused: true,
      reason: expect.stringContaining("not the announcing"),
    });
    expect(hits).toBe(before);
  });

  it("refuses what the outbound policy refuses (loopback by default)", async () => {
    const before = hits;
    expect(await fetcher(false)(url("/rootDesc.xml"), HOST)).toMatchObject({ ok: false, refused: true });
    expect(hits).toBe(before);
  });

  it("stops at the size cap and at the timeout", async () => {
    expect(await fetcher(true)(url("/big.xml"), HOST)).toMatchObject({ ok: false, refused: false });
    expect(await fetcher(true)(url("/silent.xml"), HOST)).toMatchObject({
      ok: false,
      refused: false,
      reason: expect.stringContaining("did not answer within 3000 ms"),
    });
  }, 15_000);
});
