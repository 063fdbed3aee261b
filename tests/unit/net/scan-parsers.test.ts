// The pure readers of the scan primitives: the neighbour table, a banner's first line, a page title.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bannerOf, serviceFromBanner } from "../../../net/banner.ts";
import { parseTitle } from "../../../net/http-title.ts";
import { NeighbourTable, parseArpTable, readArpTable } from "../../../net/neighbours.ts";

const arpFixture = fileURLToPath(new URL("../../fixtures/discovery/proc-net-arp.txt", import.meta.url));

describe("neighbour table", () => {
  it("keeps complete entries with a real MAC, lower-cased", () => {
    expect([...parseArpTable(readFileSync(arpFixture, "utf8"))]).toEqual([
      ["127.0.3.30", "52:54:00:ab:cd:ef"],
      ["127.0.3.33", "b8:27:eb:01:02:03"],
      ["10.20.30.40", "aa:bb:cc:dd:ee:01"],
    ]);
  });

  it("reads the file (missing → empty) and shares one read among hosts probed before it began", async () => {
    expect((await readArpTable(arpFixture)).size).toBe(3);
    expect((await readArpTable("/nonexistent/arp")).size).toBe(0);
    const table = new NeighbourTable(arpFixture);
    const before = performance.now();
    const a = table.after(before);
    expect(table.after(before)).toBe(a);
    expect(table.after(performance.now() + 1)).not.toBe(a);
  });
});

describe("banner and title parsing", () => {
  it("takes the first printable line and the Server header of an HTTP answer", () => {
    expect(bannerOf("SSH-2.0-OpenSSH_9.6\r\n")).toEqual({ banner: "SSH-2.0-OpenSSH_9.6", http: false, server: null });
    expect(bannerOf("\r\nHTTP/1.1 404 Not Found\r\nServer: Caddy\r\n\r\n")).toEqual({
      banner: "HTTP/1.1 404 Not Found",
      http: true,
      server: "Caddy",
    });
    expect(bannerOf("220 mail\x00\x07 ESMTP ready\r\n").banner).toBe("220 mail ESMTP ready");
    expect(bannerOf("")).toEqual({ banner: null, http: false, server: null });
    expect(bannerOf("\x15\x03\x03\x00\x02\x02\x46")).toEqual({ banner: null, http: false, server: null });
    expect(serviceFromBanner(bannerOf("220 mx.lab ESMTP Postfix\r\n"))).toBe("smtp");
    expect(serviceFromBanner(bannerOf("-NOAUTH Authentication required.\r\n"))).toBe("redis");
    expect(serviceFromBanner(bannerOf("hello\r\n"))).toBeNull();
  });

  it("decodes entities, collapses whitespace and bounds the title", () => {
    expect(parseTitle("<html><head><TITLE lang=en>\n  Proxmox &amp; Co &#8211; &#x41;\n</TITLE>")).toBe("Proxmox & Co – A");
    expect(parseTitle("<title></title>")).toBeNull();
    expect(parseTitle("<h1>no title</h1>")).toBeNull();
    expect(parseTitle(`<title>${"x".repeat(500)}</title>`)).toHaveLength(200);
  });
});
