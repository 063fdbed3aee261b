// An event rule's narrowing on a presented object (shared/verbs/event-rules/record-change.ts): tag, site
// and each condition operator, on the JSON values the API answers.
import { describe, expect, it } from "vitest";
import { objectMatches } from "../../shared/verbs/event-rules/record-change.ts";

const node = { id: 1, name: "web-1", site_id: 3, tags: ["dns", "prod"], status: "active", memory_gb: 64, notes: null };
const rule = (r: Partial<Parameters<typeof objectMatches>[0]>) => ({ tag: null, site_id: null, condition: null, ...r });

describe("objectMatches", () => {
  it("tests the tag and the site", () => {
    expect(objectMatches(rule({ tag: "dns" }), node)).toBe(true);
    expect(objectMatches(rule({ tag: "wiki" }), node)).toBe(false);
    expect(objectMatches(rule({ site_id: 3 }), node)).toBe(true);
    expect(objectMatches(rule({ site_id: 4 }), node)).toBe(false);
    expect(objectMatches(rule({}), null)).toBe(false);
  });

  it("tests eq, neq, in and contains", () => {
    const c = (op: "eq" | "neq" | "in" | "contains", field: string, value: unknown) =>
      objectMatches(rule({ condition: { field, op, value } }), node);
    expect(c("eq", "memory_gb", 64)).toBe(true);
    expect(c("eq", "memory_gb", "64")).toBe(false);
    expect(c("eq", "notes", null)).toBe(true);
    expect(c("neq", "status", "retired")).toBe(true);
    expect(c("in", "status", ["active", "planned"])).toBe(true);
    expect(c("in", "status", ["retired"])).toBe(false);
    expect(c("contains", "tags", "prod")).toBe(true);
    expect(c("contains", "name", "web")).toBe(true);
    expect(c("contains", "name", "db")).toBe(false);
  });
});
