// The passive listener's parsers (issue 28): mDNS answers through dns-packet, SSDP header lines, the UPnP
// description, and a deterministic fuzz of each: whatever bytes arrive, a parser answers an observation or
// throws MalformedPacket, never anything else.
import dnsPacket from "dns-packet";
import { describe, expect, it } from "vitest";
import { MalformedPacket, parseMdns } from "../../../net/listener/parse-mdns.ts";
import { describe as describeDevice, locationOf, parseDescription, parseSsdp } from "../../../net/listener/parse-ssdp.ts";

const AT = "2026-11-28T12:00:00.000Z";

const printer = dnsPacket.encode({
  type: "response",
  id: 0,
  flags: dnsPacket.AUTHORITATIVE_ANSWER,
  answers: [
    { type: "PTR", name: "_services._dns-sd._udp.local", data: "_ipp._tcp.local" },
    { type: "PTR", name: "_ipp._tcp.local", data: "Office Printer._ipp._tcp.local" },
    { type: "SRV", name: "Office Printer._ipp._tcp.local", data: { target: "officeprinter.local", port: 631 } },
    {
      type: "TXT",
      name: "Office Printer._ipp._tcp.local",
      data: ["usb_MFG=Brother", "usb_MDL=HL-L2350DW", "ty=Brother HL-L2350DW series"],
    },
  ],
  additionals: [
    { type: "A", name: "officeprinter.local", data: "192.168.1.20" },
    { type: "AAAA", name: "officeprinter.local", data: "fe80::1" },
  ],
});

describe("mDNS", () => {
  it("reads services, host, addresses and TXT facts of an answer", () => {
    expect(parseMdns(printer, "fe80::1", AT)).toMatchObject({
      protocol: "mdns",
      kind: "response",
      source: "fe80::1",
      address: "192.168.1.20",
      hostname: "officeprinter.local",
      addresses: ["192.168.1.20", "fe80::1"],
      services: [{ type: "ipp", name: "Office Printer", port: 631, protocol: "tcp" }],
      vendor: "Brother",
      model: "HL-L2350DW",
      serial: null,
    });
  });

  it("reads a question as a query with no device facts", () => {
    const q = dnsPacket.encode({ type: "query", id: 0, questions: [{ type: "PTR", name: "_googlecast._tcp.local" }] });
    expect(parseMdns(q, "192.168.1.5", AT)).toMatchObject({ kind: "query", services: [], hostname: null });
  });

  it("refuses what dns-packet cannot decode", () => {
    expect(() => parseMdns(Buffer.from([1, 2, 3]), "192.168.1.5", AT)).toThrow(MalformedPacket);
    expect(() => parseMdns(Buffer.from([0, 0, 0x84, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]), "192.168.1.5", AT)).toThrow(MalformedPacket);
    // One answer counted, none there: refused from the header, before dns-packet works through the counts.
    expect(() => parseMdns(Buffer.from([0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]), "192.168.1.5", AT)).toThrow(
      /counts more records than it holds/,
    );
  });
});

const notify = (extra: string[] = []) =>
  Buffer.from(
    [
      "NOTIFY * HTTP/1.1",
      "HOST: 239.255.255.250:1900",
      "LOCATION: http://192.168.1.1:5000/rootDesc.xml",
      "NT: urn:schemas-upnp-org:device:InternetGatewayDevice:1",
      "NTS: ssdp:alive",
      "SERVER: MiniUPnPd/2.3",
      "USN: uuid:1::upnp:rootdevice",
      ...extra,
      "",
      "",
    ].join("\r\n"),
  );

describe("SSDP", () => {
  it("reads a NOTIFY's headers", () => {
    expect(parseSsdp(notify(), "192.168.1.1", AT)).toMatchObject({
      protocol: "ssdp",
      kind: "notify",
      address: "192.168.1.1",
      location: "http://192.168.1.1:5000/rootDesc.xml",
      usn: "uuid:1::upnp:rootdevice",
      server: "MiniUPnPd/2.3",
      services: [{ type: "upnp:InternetGatewayDevice:1", port: 5000, protocol: "tcp" }],
    });
  });

  it("tells goodbyes, searches and search answers apart", () => {
    expect(parseSsdp(Buffer.from("NOTIFY * HTTP/1.1\r\nNTS: ssdp:byebye\r\nNT: upnp:rootdevice\r\n\r\n"), "192.168.1.1", AT)).toMatchObject(
      { kind: "byebye", services: [] },
    );
    expect(parseSsdp(Buffer.from('M-SEARCH * HTTP/1.1\r\nMAN: "ssdp:discover"\r\nST: ssdp:all\r\n\r\n'), "192.168.1.9", AT)).toMatchObject({
      kind: "search",
      services: [],
    });
    expect(
      parseSsdp(Buffer.from("HTTP/1.1 200 OK\r\nST: upnp:rootdevice\r\nLOCATION: http://192.168.1.1/d.xml\r\n\r\n"), "192.168.1.1", AT),
    ).toMatchObject({ kind: "search_response", services: [{ type: "upnp:rootdevice", port: 80 }] });
  });

  it("refuses what is not SSDP", () => {
    expect(() => parseSsdp(Buffer.from("GET / HTTP/1.1\r\n\r\n"), "192.168.1.1", AT)).toThrow(MalformedPacket);
    expect(() => parseSsdp(Buffer.from("NOTIFY * HTTP/1.1\r\nno colon\r\n\r\n"), "192.168.1.1", AT)).toThrow(MalformedPacket);
  });

  it("fetches only an http(s) LOCATION whose host is an IPv4 literal", () => {
    expect(locationOf("http://192.168.1.1:5000/rootDesc.xml")?.hostname).toBe("192.168.1.1");
    for (const bad of ["http://router.local/desc.xml", "file:///etc/passwd", "http://[fe80::1]/d.xml", "not a url", null])
      expect(locationOf(bad)).toBeNull();
  });

  it("reads a device description and adds what it names to the observation", () => {
    const d = parseDescription(`<?xml version="1.0"?><root xmlns="urn:schemas-upnp-org:device-1-0"><device>
      <deviceType>urn:schemas-upnp-org:device:MediaServer:1</deviceType><friendlyName>NAS</friendlyName><manufacturer>Synology</manufacturer>
      <modelName>DS920+</modelName><serialNumber>2040ABC</serialNumber>
      <serviceList><service><serviceType>urn:schemas-upnp-org:service:ContentDirectory:1</serviceType></service></serviceList></device></root>`);
    expect(d).toMatchObject({
      friendlyName: "NAS",
      manufacturer: "Synology",
      modelName: "DS920+",
      serialNumber: "2040ABC",
      services: ["upnp:ContentDirectory:1"],
    });
    const o = describeDevice(parseSsdp(notify(), "192.168.1.1", AT), d);
    expect(o).toMatchObject({ vendor: "Synology", model: "DS920+", serial: "2040ABC", hostname: "NAS", described: true });
    expect(o.services.map((s) => s.type)).toEqual(["upnp:MediaServer:1", "upnp:InternetGatewayDevice:1", "upnp:ContentDirectory:1"]);
    expect(() => parseDescription("<html><body>login</body></html>")).toThrow(MalformedPacket);
  });
});

describe("fuzz: malformed input only ever throws MalformedPacket", () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rnd() * 256)));
  /** A valid packet with a few bytes changed, cut short or both. */
  const mutate = (buf: Buffer) => {
    const b = Buffer.from(buf);
    for (let i = 0; i < 1 + Math.floor(rnd() * 4); i++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
    return rnd() < 0.5 ? b : b.subarray(0, Math.floor(rnd() * b.length));
  };
  const outcome = (f: () => unknown) => {
    try {
      f();
      return "parsed";
    } catch (e) {
      return e instanceof MalformedPacket ? "malformed" : `threw ${String(e)}`;
    }
  };

  it("mDNS", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++)
      seen.add(outcome(() => parseMdns(i % 2 ? mutate(printer) : bytes(Math.floor(rnd() * 600)), "192.168.1.5", AT)));
    expect([...seen].filter((x) => x.startsWith("threw"))).toEqual([]);
    expect(seen).toContain("malformed");
  });

  it("SSDP and descriptions", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      seen.add(outcome(() => parseSsdp(i % 2 ? mutate(notify()) : bytes(Math.floor(rnd() * 400)), "192.168.1.1", AT)));
      seen.add(
        outcome(() =>
          parseDescription(
            mutate(Buffer.from("<root><device><manufacturer>X</manufacturer><deviceList><device/></deviceList></device></root>")).toString(
              "latin1",
            ),
          ),
        ),
      );
    }
    expect([...seen].filter((x) => x.startsWith("threw"))).toEqual([]);
  });
});
