import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVICE_TYPES, VENDORS } from "../../../shared/verbs/catalog/catalog.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("catalog: the data file", () => {
  it("has ~15 vendors with unique keys, each with devices of known types and sane numbers", () => {
    expect(VENDORS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(VENDORS.map((v) => v.key)).size).toBe(VENDORS.length);
    for (const v of VENDORS) {
      expect(v.key, v.name).toMatch(/^[a-z0-9-]+$/);
      expect(v.devices.length, v.name).toBeGreaterThanOrEqual(3);
      expect(new Set(v.devices.map((d) => d.key)).size, v.name).toBe(v.devices.length);
      for (const d of v.devices) {
        expect(DEVICE_TYPES, `${v.key}/${d.key}`).toContain(d.type);
        expect(d.key).toMatch(/^[a-z0-9-]+$/);
        if (d.u_height !== null) expect(d.u_height).toBeGreaterThanOrEqual(1);
        if (d.memory_gb !== null) expect(d.memory_gb).toBeGreaterThan(0);
      }
    }
  });
});

describe("catalog: happy", () => {
  it("lists vendors, a vendor's devices, and searches case-insensitively over both", async () => {
    const vendors = await (await a.req("GET", "catalog/vendors", a.viewer)).json();
    expect(vendors.map((v: { key: string }) => v.key)).toEqual(
      expect.arrayContaining([
        "dell",
        "hpe",
        "lenovo",
        "supermicro",
        "ubiquiti",
        "mikrotik",
        "synology",
        "qnap",
        "raspberry-pi",
        "intel-nuc",
        "cisco",
        "netgear",
        "tp-link",
        "protectli",
        "minisforum",
      ]),
    );
    expect(vendors.find((v: { key: string }) => v.key === "dell")).toMatchObject({ name: "Dell", device_count: 5 });

    const devices = await (await a.req("GET", "catalog/vendors/dell/devices", a.viewer)).json();
    expect(devices.find((d: { key: string }) => d.key === "poweredge-r730")).toEqual({
      key: "poweredge-r730",
      name: "PowerEdge R730",
      type: "server",
      u_height: 2,
      memory_gb: 128,
      cpu: "2x Intel Xeon E5-2600 v3/v4",
      vendor_key: "dell",
      vendor_name: "Dell",
    });

    const pi = await (await a.req("GET", "catalog/search?q=RASPBERRY", a.viewer)).json();
    expect(pi.vendors.map((v: { key: string }) => v.key)).toEqual(["raspberry-pi"]);
    expect(pi.devices.length).toBeGreaterThanOrEqual(3);
    const ryzen = await (await a.req("GET", "catalog/search?q=ryzen", a.viewer)).json();
    expect(new Set(ryzen.devices.map((d: { vendor_key: string }) => d.vendor_key))).toEqual(new Set(["synology", "qnap", "minisforum"]));
    const cross = await (await a.req("GET", "catalog/search?q=dell%20poweredge%20r7", a.viewer)).json();
    expect(cross.devices.map((d: { key: string }) => d.key)).toEqual(["poweredge-r730", "poweredge-r720"]);
    expect(await (await a.req("GET", "catalog/search?q=zzzz-nothing", a.viewer)).json()).toEqual({
      query: "zzzz-nothing",
      vendors: [],
      devices: [],
    });
  });
});

describe("catalog: errors and security", () => {
  it("404 names an unknown vendor; an empty search is 422", async () => {
    expect(await (await a.req("GET", "catalog/vendors/acme/devices", a.viewer)).json()).toEqual({
      error_code: "RESOURCE_NOT_FOUND",
      detail: "Vendor acme was not found.",
    });
    expect((await a.req("GET", "catalog/search?q=%20", a.viewer)).status).toBe(422);
    expect((await a.req("GET", "catalog/search", a.viewer)).status).toBe(422);
  });

  it("needs a signed-in user", async () => {
    expect((await a.req("GET", "catalog/vendors")).status).toBe(401);
    expect((await a.req("GET", "catalog/search?q=dell")).status).toBe(401);
  });
});
