import { describe, expect, it } from "vitest";
import { confirmationProblems, requiredHeaders } from "../../../shared/verbs/confirm/confirm.ts";

const headers = (h: Record<string, string>) => (name: string) => h[name];
const ok = { "x-svc-confirmation": "delete-logs", "idempotency-key": "abcdefghijkl", "x-svc-backup-verified": "true" };

describe("confirmationProblems", () => {
  it("accepts the three headers for an action that needs a backup", () => {
    expect(confirmationProblems({ action: "delete-logs", requiresBackup: true }, headers(ok))).toEqual({});
  });

  it("names each missing or wrong header", () => {
    expect(Object.keys(confirmationProblems({ action: "delete-logs", requiresBackup: true }, headers({})))).toEqual([
      "x-svc-confirmation",
      "idempotency-key",
      "x-svc-backup-verified",
    ]);
    const wrong = confirmationProblems(
      { action: "delete-logs", requiresBackup: true },
      headers({ ...ok, "x-svc-confirmation": "DELETE-LOGS" }),
    );
    expect(wrong["x-svc-confirmation"]).toContain('"delete-logs"');
  });

  it("needs a key of 12 to 255 visible ASCII characters", () => {
    const spec = { action: "a" };
    const problem = (key: string) =>
      "idempotency-key" in confirmationProblems(spec, headers({ "x-svc-confirmation": "a", "idempotency-key": key }));
    expect(problem("abcdefghijk")).toBe(true); // 11
    expect(problem("abcdefghijkl")).toBe(false); // 12
    expect(problem("x".repeat(255))).toBe(false);
    expect(problem("x".repeat(256))).toBe(true);
    expect(problem("abc def ghijkl")).toBe(true);
    expect(problem("abcdefghijklé")).toBe(true);
  });

  it("asks for the backup assertion only where the action needs it, and it must say true", () => {
    const noBackup = { "x-svc-confirmation": "reset-settings", "idempotency-key": "abcdefghijkl" };
    expect(confirmationProblems({ action: "reset-settings" }, headers(noBackup))).toEqual({});
    expect(
      Object.keys(
        confirmationProblems({ action: "reset-settings", requiresBackup: true }, headers({ ...noBackup, "x-svc-backup-verified": "yes" })),
      ),
    ).toEqual(["x-svc-backup-verified"]);
    expect(
      confirmationProblems({ action: "reset-settings", requiresBackup: true }, headers({ ...noBackup, "x-svc-backup-verified": "TRUE" })),
    ).toEqual({});
  });

  it("lists the required header names", () => {
    expect(requiredHeaders({ action: "x" })).toEqual(["x-svc-confirmation", "idempotency-key"]);
    expect(requiredHeaders({ action: "x", requiresBackup: true })).toEqual([
      "x-svc-confirmation",
      "idempotency-key",
      "x-svc-backup-verified",
    ]);
  });
});
