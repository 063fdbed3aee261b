// Interfaces the listener cannot listen on are reported in its status, and no socket is opened for them:
// `lo` has only loopback addresses and the other name does not exist, so nothing is bound or joined on
// this machine's interfaces.
import { describe, expect, it } from "vitest";
import { passiveListener } from "../../../net/listener/passive-listener.ts";

describe("passive listener interfaces", () => {
  it("reports a missing interface and one with only loopback addresses, and does not listen", async () => {
    const heard: unknown[] = [];
    const l = passiveListener({ interfaces: ["lo", "svclnone0"], onObservation: (o) => heard.push(o) });
    await l.start();
    const s = l.status();
    expect(s).toMatchObject({ running: false, interfaces: ["lo", "svclnone0"], groups: [] });
    expect(s.errors.map((e) => e.message)).toEqual(
      expect.arrayContaining([
        "interface svclnone0 not found",
        "interface lo has no IPv4 address other than loopback: mDNS and SSDP over IPv4 are not joined there",
      ]),
    );
    await l.stop();
    expect(heard).toEqual([]);
  });
});
