import { describe, expect, it } from "vitest";
import {
  CATEGORIES,
  categoryFor,
  DEFAULT_PROFILE,
  isSkipped,
  LONGEST_WINDOW_MS,
  POLICY,
  PROFILES,
} from "../../../shared/ratelimit/policy.ts";

const MIN = 60_000;

describe("rate-limit policy table (spec 8.1)", () => {
  it("holds every category x profile exactly as the spec lists it", () => {
    const table = Object.fromEntries(
      CATEGORIES.map((c) => [c, Object.fromEntries(PROFILES.map((p) => [p, `${POLICY[c][p].limit}/${POLICY[c][p].windowMs / MIN}m`]))]),
    );
    expect(table).toEqual({
      auth: { relaxed: "20/1m", normal: "5/1m", strict: "3/1m" },
      ip_check: { relaxed: "30/1m", normal: "10/1m", strict: "5/1m" },
      mfa_verify: { relaxed: "10/15m", normal: "5/15m", strict: "3/15m" },
      scan: { relaxed: "5/1m", normal: "1/1m", strict: "1/5m" },
      telemetry: { relaxed: "30/1m", normal: "15/1m", strict: "5/1m" },
      default: { relaxed: "60/1m", normal: "30/1m", strict: "10/1m" },
    });
  });

  it("defaults to the normal profile; the longest window is 15 minutes", () => {
    expect(DEFAULT_PROFILE).toBe("normal");
    expect(LONGEST_WINDOW_MS).toBe(15 * MIN);
  });
});

describe("categoryFor", () => {
  it.each([
    ["POST", "/api/v1/auth/login", "auth"],
    ["POST", "/api/v1/auth/jwt/login", "auth"],
    ["POST", "/api/v1/auth/register", "auth"],
    ["POST", "/api/v1/auth/demo", "auth"],
    ["POST", "/api/v1/auth/accept-invite", "auth"],
    ["POST", "/api/v1/auth/force-change-password", "auth"],
    ["POST", "/api/v1/auth/vault-reset", "auth"],
    ["POST", "/api/v1/bootstrap/initialize", "auth"],
    ["POST", "/api/v1/auth/login/", "auth"],
    ["post", "/api/v1/auth/login", "auth"],
    ["POST", "/api/v1/auth/mfa/verify", "mfa_verify"],
    ["GET", "/api/v1/ip-check", "ip_check"],
    ["POST", "/api/v1/ip-check", "ip_check"],
    ["GET", "/api/v1/services/check-ip", "ip_check"],
    ["POST", "/api/v1/discovery/scan", "scan"],
    ["POST", "/api/v1/ipam/scan/12", "scan"],
    ["POST", "/api/v1/discovery/profiles/7/run", "scan"],
    ["GET", "/api/v1/telemetry/ingest", "telemetry"],
    ["POST", "/api/v1/telemetry/batch", "telemetry"],
    ["GET", "/api/v1/hardware/42/telemetry", "telemetry"],
    ["GET", "/api/v1/hardware/42/telemetry-summary", "telemetry"],
    ["GET", "/api/v1/hardware/42/telemetry/cpu", "telemetry"],
  ])("%s %s -> %s", (method, path, category) => {
    expect(categoryFor(method, path)).toBe(category);
  });

  it.each([
    ["GET", "/api/v1/auth/login"], // only the POST signs in
    ["POST", "/api/v1/auth/logout"],
    ["POST", "/api/v1/auth/login/extra"],
    ["GET", "/api/v1/auth/mfa/verify"],
    ["POST", "/api/v1/auth/mfa/setup"],
    ["GET", "/api/v1/bootstrap/initialize"],
    ["GET", "/api/v1/discovery/scan"],
    ["POST", "/api/v1/discovery/scans"],
    ["POST", "/api/v1/ipam/scan"],
    ["POST", "/api/v1/ipam/scan/1/2"],
    ["POST", "/api/v1/discovery/profiles/7"],
    ["GET", "/api/v1/discovery/profiles/7/run"],
    ["GET", "/api/v1/telemetry"],
    ["GET", "/api/v1/hardware/42"],
    ["GET", "/api/v1/hardware"],
    ["GET", "/api/v1/ip-check-history"],
    ["POST", "/api/v1/tenants"],
  ])("%s %s -> default", (method, path) => {
    expect(categoryFor(method, path)).toBe("default");
  });
});

describe("isSkipped", () => {
  it.each([
    "/api/v1/livez",
    "/api/v1/startupz",
    "/api/v1/readyz",
    "/api/v1/health",
    "/api/v1/health/",
    "/api/v1/health/db",
    "/api/v1/metrics",
    "/api/v1/metrics/json",
    // A status page's JSON twin, served from the page cache (docs/adr/0459).
    "/api/v1/status-pages/home/summary",
  ])("%s is never limited", (path) => expect(isSkipped(path)).toBe(true));

  it.each([
    "/api/v1/tenants",
    "/api/v1/healthz",
    "/api/v1/health-report",
    "/api/v1/livez/x",
    "/api/v2/livez",
    "/api/v1/auth/login",
    "/api/v1/status-pages",
    "/api/v1/status-pages/1",
  ])("%s is limited", (path) => expect(isSkipped(path)).toBe(false));
});
