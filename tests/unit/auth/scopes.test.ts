import { describe, expect, it } from "vitest";
import {
  GRANTABLE_SCOPES,
  isBuiltInRole,
  isGrantableScope,
  ROLE_RANK,
  ROLE_SCOPES,
  scopeAllows,
  scopesWithin,
} from "../../../shared/auth/scopes.ts";

describe("roles (spec 5.2)", () => {
  it("has exactly the spec's table", () => {
    expect(ROLE_SCOPES).toEqual({
      viewer: ["read:*"],
      demo: ["read:*"],
      editor: [
        "read:*",
        "write:hardware",
        "write:services",
        "write:networks",
        "write:clusters",
        "write:external",
        "write:compute",
        "write:storage",
        "write:misc",
        "write:docs",
        "write:graph",
        "write:layout",
      ],
      admin: ["read:*", "write:*", "delete:*", "admin:*"],
    });
  });

  it("grantable scopes are the spec's list", () => {
    expect([...GRANTABLE_SCOPES]).toEqual([
      "read:*",
      "write:*",
      "delete:*",
      "admin:*",
      "write:telemetry",
      "read:ansible-inventory",
      "read:prometheus-sd",
      "*:*",
    ]);
    expect(isGrantableScope("write:telemetry")).toBe(true);
    expect(isGrantableScope("write:hardware")).toBe(false);
  });

  it("ranks viewer = demo < editor < admin", () => {
    expect(ROLE_RANK.viewer).toBe(ROLE_RANK.demo);
    expect(ROLE_RANK.viewer).toBeLessThan(ROLE_RANK.editor);
    expect(ROLE_RANK.editor).toBeLessThan(ROLE_RANK.admin);
  });

  it.each([
    ["viewer", true],
    ["demo", true],
    ["editor", true],
    ["admin", true],
    ["Admin", false],
    ["operator", false],
    ["", false],
    ["constructor", false],
    ["__proto__", false],
    ["toString", false],
  ])("isBuiltInRole(%j) = %s", (name, expected) => {
    expect(isBuiltInRole(name)).toBe(expected);
  });
});

describe("scopeAllows", () => {
  const viewer = ROLE_SCOPES.viewer;
  const editor = ROLE_SCOPES.editor;
  const admin = ROLE_SCOPES.admin;

  // [granted, required, allowed]
  const table: [readonly string[], string, boolean][] = [
    [["*:*"], "read:hardware", true],
    [["*:*"], "write:telemetry", true],
    [["*:*"], "admin:users", true],
    [["*:*"], "*:*", true],
    [["*:*"], "write:*", true],
    [["write:*"], "write:hardware", true],
    [["write:*"], "write:telemetry", true],
    [["write:*"], "write:*", true],
    [["write:*"], "read:hardware", false],
    [["write:*"], "delete:hardware", false],
    [["write:*"], "*:*", false],
    [["read:*"], "read:anything", true],
    [["read:*"], "read:*", true],
    [["read:*"], "write:hardware", false],
    [["write:hardware"], "write:hardware", true],
    [["write:hardware"], "write:services", false],
    [["write:hardware"], "write:*", false],
    [["write:hardware"], "read:hardware", false],
    [["write:telemetry"], "write:telemetry", true],
    [["write:telemetry"], "write:hardware", false],
    // docs/adr/0482: the service discovery scopes are reads like any other (read:* covers them), and
    // each covers its own answer only.
    [["read:ansible-inventory"], "read:ansible-inventory", true],
    [["read:ansible-inventory"], "read:prometheus-sd", false],
    [["read:ansible-inventory"], "read:hardware", false],
    [["read:prometheus-sd"], "read:services", false],
    [viewer, "read:prometheus-sd", true],
    [["*:hardware"], "delete:hardware", true],
    [["*:hardware"], "delete:services", false],
    [[], "read:hardware", false],
    [viewer, "read:hardware", true],
    [viewer, "write:hardware", false],
    [editor, "write:layout", true],
    [editor, "write:telemetry", false],
    [editor, "delete:hardware", false],
    [editor, "admin:users", false],
    [admin, "delete:hardware", true],
    [admin, "admin:users", true],
    [admin, "write:telemetry", true],
    [admin, "*:*", true],
    [["read:*", "write:*", "delete:*"], "*:*", false],
    [admin, "*:hardware", true],
    [editor, "*:hardware", false],
    // Malformed on either side.
    [["*"], "read:hardware", false],
    [["write"], "write", false],
    [["write:"], "write:", false],
    [["WRITE:*"], "write:hardware", false],
    [["write:*:*"], "write:hardware", false],
    [[" write:*"], "write:hardware", false],
    [admin, "", false],
    [admin, "read", false],
    [admin, "read:hardware:x", false],
    [["*:*"], "Read:hardware", false],
  ];

  it.each(table)("%j allows %j: %s", (granted, required, allowed) => {
    expect(scopeAllows(granted, required)).toBe(allowed);
  });
});

describe("scopesWithin", () => {
  it.each([
    [["read:*"], ROLE_SCOPES.viewer, true],
    [["read:*", "write:hardware"], ROLE_SCOPES.viewer, false],
    [["write:hardware", "write:docs"], ROLE_SCOPES.editor, true],
    [["write:*"], ROLE_SCOPES.editor, false],
    [["write:telemetry"], ROLE_SCOPES.editor, false],
    [["write:telemetry"], ROLE_SCOPES.admin, true],
    [["*:*"], ROLE_SCOPES.admin, true],
    [["*:*"], ["*:*"], true],
    [["*:*"], ROLE_SCOPES.editor, false],
    [GRANTABLE_SCOPES, ROLE_SCOPES.admin, true],
    [GRANTABLE_SCOPES, ["*:*"], true],
    [[], ROLE_SCOPES.viewer, true],
    [["read:*", "bogus"], ROLE_SCOPES.admin, false],
  ] as [readonly string[], readonly string[], boolean][])("%j within %j: %s", (requested, granted, expected) => {
    expect(scopesWithin(requested, granted)).toBe(expected);
  });

  it("every role's scopes are within admin's, and each role is within itself", () => {
    for (const scopes of Object.values(ROLE_SCOPES)) {
      expect(scopesWithin(scopes, ROLE_SCOPES.admin)).toBe(true);
      expect(scopesWithin(scopes, scopes)).toBe(true);
    }
    expect(scopesWithin(ROLE_SCOPES.editor, ROLE_SCOPES.viewer)).toBe(false);
    expect(scopesWithin(ROLE_SCOPES.admin, ROLE_SCOPES.editor)).toBe(false);
  });
});
