// The devices of the listener test, inside the announcers' network namespace: a printer announcing itself
// over mDNS (PTR _ipp._tcp.local, SRV, TXT with usb_MFG/usb_MDL/ty, A) and a router over SSDP NOTIFY whose
// LOCATION is a small HTTP server here serving its UPnP description. argv: own address, then the mode:
// "announce" sends both announcements every 200 ms; "fuzz" sends malformed datagrams. Every loop is bounded
// (at most 150 rounds, or stdin closing); it prints {type: "ready"} once the description server listens.
// argv: the printer's address, the router's address (both on the namespace's one interface), the mode, and
// for the mode "ipv6" (the printer's announcement to ff02::fb from its link-local address) the interface.
import dgram from "node:dgram";
import { createServer } from "node:http";
import { createInterface } from "node:readline";
import dnsPacket from "dns-packet";

const [address = "", routerAddress = "", mode = "announce", ifname = ""] = process.argv.slice(2);
const DESCRIPTION = `<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>
<device><deviceType>urn:schemas-upnp-org:device:InternetGatewayDevice:1</deviceType><friendlyName>Test Router</friendlyName>
<manufacturer>Netgearish</manufacturer><modelName>RX-500</modelName><modelNumber>RX500v2</modelNumber><serialNumber>SN-ROUTER-0042</serialNumber>
<serviceList><service><serviceType>urn:schemas-upnp-org:service:Layer3Forwarding:1</serviceType></service></serviceList>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANDevice:1</deviceType>
<serviceList><service><serviceType>urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1</serviceType></service></serviceList></device></deviceList>
</device></root>`;

const server = createServer((req, res) => {
  if (req.url === "/rootDesc.xml") {
    res.writeHead(200, { "content-type": "text/xml" });
    res.end(DESCRIPTION);
  } else {
    res.writeHead(404);
    res.end();
  }
});
await new Promise<void>((r) => server.listen(49152, routerAddress, r));

async function sender(bindTo: string): Promise<dgram.Socket> {
  const s = dgram.createSocket({ type: "udp4", reuseAddr: true });
  await new Promise<void>((r) => s.bind({ address: bindTo, port: 0 }, r));
  s.setMulticastInterface(bindTo);
  s.setMulticastTTL(1);
  return s;
}
const sock = await sender(address);
const routerSock = await sender(routerAddress);

const mdns = dnsPacket.encode({
  type: "response",
  id: 0,
  flags: dnsPacket.AUTHORITATIVE_ANSWER,
  answers: [
    { type: "PTR", name: "_ipp._tcp.local", ttl: 120, data: "Office Printer._ipp._tcp.local" },
    {
      type: "SRV",
      name: "Office Printer._ipp._tcp.local",
      ttl: 120,
      data: { target: "officeprinter.local", port: 631, priority: 0, weight: 0 },
    },
    {
      type: "TXT",
      name: "Office Printer._ipp._tcp.local",
      ttl: 120,
      data: ["txtvers=1", "usb_MFG=Brother", "usb_MDL=HL-L2350DW", "ty=Brother HL-L2350DW series", "rp=ipp/print"],
    },
    { type: "A", name: "officeprinter.local", ttl: 120, data: address },
  ],
});
const notify = Buffer.from(
  [
    "NOTIFY * HTTP/1.1",
    "HOST: 239.255.255.250:1900",
    "CACHE-CONTROL: max-age=1800",
    `LOCATION: http://${routerAddress}:49152/rootDesc.xml`,
    "NT: urn:schemas-upnp-org:device:InternetGatewayDevice:1",
    "NTS: ssdp:alive",
    "SERVER: Linux/5.10 UPnP/1.1 MiniUPnPd/2.3",
    "USN: uuid:aaaa-bbbb::urn:schemas-upnp-org:device:InternetGatewayDevice:1",
    "",
    "",
  ].join("\r\n"),
);

/** Malformed datagrams of every sort: random bytes, truncated DNS, a DNS header claiming records it lacks, broken SSDP. */
function fuzzPackets(): { port: number; group: string; buf: Buffer }[] {
  const out: { port: number; group: string; buf: Buffer }[] = [];
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let i = 0; i < 60; i++)
    out.push({
      port: 5353,
      group: "224.0.0.251",
      buf: Buffer.from(Array.from({ length: 1 + Math.floor(rnd() * 300) }, () => Math.floor(rnd() * 256))),
    });
  for (let i = 1; i < mdns.length; i += 7) out.push({ port: 5353, group: "224.0.0.251", buf: mdns.subarray(0, i) });
  out.push({ port: 5353, group: "224.0.0.251", buf: Buffer.from([0, 0, 0x84, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]) });
  for (let i = 0; i < 40; i++)
    out.push({
      port: 1900,
      group: "239.255.255.250",
      buf: Buffer.from(Array.from({ length: 1 + Math.floor(rnd() * 200) }, () => Math.floor(rnd() * 256))),
    });
  out.push({ port: 1900, group: "239.255.255.250", buf: Buffer.from("NOTIFY * HTTP/1.1\r\nno colon here\r\n\r\n") });
  out.push({
    port: 1900,
    group: "239.255.255.250",
    buf: Buffer.from(`NOTIFY * HTTP/1.1\r\nLOCATION: http://${routerAddress}:49152/${"x".repeat(9500)}\r\n\r\n`),
  });
  return out;
}

const send = (buf: Buffer, port: number, group: string, from = sock) => new Promise<void>((r) => from.send(buf, port, group, () => r()));
let v6: dgram.Socket | undefined;
if (mode === "ipv6") {
  v6 = dgram.createSocket({ type: "udp6", reuseAddr: true, ipv6Only: true });
  await new Promise<void>((r) => v6!.bind({ address: "::", port: 0 }, r));
  v6.setMulticastInterface(`::%${ifname}`);
}
let stop = false;
createInterface({ input: process.stdin }).on("close", () => {
  stop = true;
});
process.stdout.write(`${JSON.stringify({ type: "ready" })}\n`);
if (mode === "fuzz") {
  for (const p of fuzzPackets()) await send(p.buf, p.port, p.group);
  process.stdout.write(`${JSON.stringify({ type: "sent", count: fuzzPackets().length })}\n`);
}
for (let round = 0; round < 150 && !stop; round++) {
  // Until the link-local address has passed duplicate detection a send fails; the next round tries again.
  if (v6) await new Promise<void>((r) => v6!.send(mdns, 5353, `ff02::fb%${ifname}`, () => r()));
  if (mode === "announce") {
    await send(mdns, 5353, "224.0.0.251");
    await send(notify, 1900, "239.255.255.250", routerSock);
  }
  await new Promise((r) => setTimeout(r, 200));
}
sock.close();
routerSock.close();
v6?.close();
server.close();
process.exit(0);
