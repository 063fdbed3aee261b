import { describe, expect, it } from "vitest";
import { computeUnitIdentity, hardwareIdentity, serviceIdentity, splitNameVersion } from "../../../shared/domain/cve/inventory-identity.ts";

describe("identities derived from inventory fields", () => {
  it("splits a trailing version off a name", () => {
    expect(splitNameVersion("nginx 1.24.0")).toEqual({ name: "nginx", version: "1.24.0" });
    expect(splitNameVersion("OpenSSH_9.3p1")).toEqual({ name: "OpenSSH", version: "9.3p1" });
    expect(splitNameVersion("Apache httpd/2.4.57")).toEqual({ name: "Apache httpd", version: "2.4.57" });
    expect(splitNameVersion("Grafana v10.2.3")).toEqual({ name: "Grafana", version: "10.2.3" });
    expect(splitNameVersion("redis")).toEqual({ name: "redis", version: null });
  });

  it("maps known software and operating systems to CPE names, and nothing else", () => {
    expect(serviceIdentity({ name: "nginx 1.24.0" })).toEqual({ vendor: "f5", product: "nginx", version: "1.24.0" });
    expect(serviceIdentity({ name: "Apache HTTP Server 2.4.57" })).toEqual({ vendor: "apache", product: "http_server", version: "2.4.57" });
    expect(serviceIdentity({ name: "PostgreSQL" })).toEqual({ vendor: "postgresql", product: "postgresql", version: null });
    expect(serviceIdentity({ name: "billing api 2.0" })).toBeNull();
    expect(computeUnitIdentity({ os: "Ubuntu 22.04" })).toEqual({ vendor: "canonical", product: "ubuntu_linux", version: "22.04" });
    expect(computeUnitIdentity({ os: "Debian GNU/Linux 12" })).toEqual({ vendor: "debian", product: "debian_linux", version: "12" });
    expect(computeUnitIdentity({ os: "Windows" })).toBeNull();
    expect(computeUnitIdentity({ os: null })).toBeNull();
  });

  it("takes hardware vendor and model as CPE names, with vendor aliases and no version", () => {
    expect(hardwareIdentity({ vendor: "Ubiquiti Networks", model: "EdgeRouter X" })).toEqual({
      vendor: "ui",
      product: "edgerouter_x",
      version: null,
    });
    expect(hardwareIdentity({ vendor: "TP-Link", model: "Archer AX21" })).toEqual({
      vendor: "tp-link",
      product: "archer_ax21",
      version: null,
    });
    expect(hardwareIdentity({ vendor: "Synology", model: null })).toBeNull();
  });
});
