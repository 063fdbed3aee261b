// The pure rules of the certificates group: which SAN names cover a domain, which expiry warning is due.
import { describe, expect, it } from "vitest";
import { daysLeft, dueThreshold } from "../../shared/verbs/certificates/certificates-job.ts";
import { isIpAddress, nameCovers } from "../../shared/verbs/certificates/x509.ts";

const DAY = 86_400_000;
const now = new Date("2026-11-25T12:00:00Z");
const inDays = (d: number) => new Date(now.getTime() + d * DAY);

describe("nameCovers", () => {
  it("matches exactly, case-insensitively, ignoring a trailing dot", () => {
    expect(nameCovers("cp.example.com", "CP.example.com.")).toBe(true);
    expect(nameCovers("cp.example.com", "example.com")).toBe(false);
  });
  it("lets a wildcard stand for exactly one left label", () => {
    expect(nameCovers("*.example.com", "a.example.com")).toBe(true);
    expect(nameCovers("*.example.com", "a.b.example.com")).toBe(false);
    expect(nameCovers("*.example.com", "example.com")).toBe(false);
  });
  it("tells IP addresses from names", () => {
    expect(isIpAddress("127.0.0.71")).toBe(true);
    expect(isIpAddress("::1")).toBe(true);
    expect(isIpAddress("256.1.1.1")).toBe(false);
    expect(isIpAddress("cp.example.com")).toBe(false);
  });
});

describe("dueThreshold", () => {
  it("is nothing further out than 30 days", () => {
    expect(dueThreshold(inDays(31), now, null)).toBeNull();
  });
  it("raises the smallest threshold crossed, once", () => {
    expect(dueThreshold(inDays(30), now, null)?.days).toBe(30);
    expect(dueThreshold(inDays(29), now, 30)).toBeNull();
    expect(dueThreshold(inDays(14), now, 30)).toMatchObject({ days: 14, severity: "warning" });
    expect(dueThreshold(inDays(10), now, null)?.days).toBe(14);
    expect(dueThreshold(inDays(3), now, 14)).toMatchObject({ days: 3, severity: "critical" });
    expect(dueThreshold(inDays(1), now, 3)).toBeNull();
    expect(dueThreshold(inDays(-2), now, null)?.days).toBe(3);
  });
  it("counts whole days left", () => {
    expect(daysLeft(new Date(now.getTime() + 1.5 * DAY), now)).toBe(1);
    expect(daysLeft(new Date(now.getTime() - 1), now)).toBe(-1);
  });
});
