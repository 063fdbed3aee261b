import { describe, expect, it } from "vitest";
import {
  type CustomFieldDefinition,
  definitionIssues,
  filterValue,
  resolveValues,
  valueProblem,
} from "../../shared/domain/custom-fields.ts";

const base: CustomFieldDefinition = {
  name: "f",
  type: "text",
  kinds: ["hardware"],
  required: false,
  default_value: null,
  choices: [],
  reference_kind: null,
  regex: null,
  min_value: null,
  max_value: null,
  min_length: null,
  max_length: null,
};
const def = (over: Partial<CustomFieldDefinition>): CustomFieldDefinition => ({ ...base, ...over });
const KINDS = ["hardware", "site", "service"];

describe("valueProblem", () => {
  it("takes each type's values and refuses others", () => {
    const cases: [Partial<CustomFieldDefinition>, unknown, boolean][] = [
      [{ type: "text" }, "x", true],
      [{ type: "text" }, 1, false],
      [{ type: "text", regex: "^a+$" }, "aaa", true],
      [{ type: "text", regex: "^a+$" }, "ab", false],
      [{ type: "text", min_length: 2, max_length: 3 }, "a", false],
      [{ type: "text", min_length: 2, max_length: 3 }, "abcd", false],
      [{ type: "integer" }, 3, true],
      [{ type: "integer" }, 3.5, false],
      [{ type: "integer", min_value: 1, max_value: 9 }, 10, false],
      [{ type: "decimal" }, 3.5, true],
      [{ type: "decimal" }, "3.5", false],
      [{ type: "boolean" }, false, true],
      [{ type: "boolean" }, "false", false],
      [{ type: "date" }, "2024-02-29", true],
      [{ type: "date" }, "2023-02-29", false],
      [{ type: "date" }, "2024-2-1", false],
      [{ type: "url" }, "https://example.com/x", true],
      [{ type: "url" }, "javascript:alert(1)", false],
      [{ type: "selection", choices: ["a", "b"] }, "a", true],
      [{ type: "selection", choices: ["a", "b"] }, "c", false],
      [{ type: "multi_selection", choices: ["a", "b"] }, ["a", "b"], true],
      [{ type: "multi_selection", choices: ["a", "b"] }, ["a", "a"], false],
      [{ type: "multi_selection", choices: ["a", "b"] }, "a", false],
      [{ type: "reference", reference_kind: "site" }, 4, true],
      [{ type: "reference", reference_kind: "site" }, 0, false],
      [{ type: "reference", reference_kind: "site" }, "4", false],
    ];
    for (const [over, value, ok] of cases)
      expect(valueProblem(def(over), value) === undefined, `${JSON.stringify(over)} ${JSON.stringify(value)}`).toBe(ok);
  });
});

describe("resolveValues", () => {
  const defs = [
    def({ name: "a", type: "integer", default_value: 4 }),
    def({ name: "b", required: true }),
    def({ name: "c", type: "reference", reference_kind: "site" }),
  ];

  it("applies defaults on create only, asks for required fields and names unknown ones", () => {
    const created = resolveValues(defs, undefined, { b: "x", c: 7 });
    expect(created).toEqual({
      values: { a: 4, b: "x", c: 7 },
      issues: [],
      references: [{ field: "custom_fields.c", kind: "site", id: 7 }],
    });
    expect(resolveValues(defs, undefined, {}).issues).toEqual([{ field: "custom_fields.b", msg: "Required." }]);
    expect(resolveValues(defs, undefined, { b: "x", zz: 1 }).issues).toEqual([
      { field: "custom_fields.zz", msg: 'No custom field "zz" applies to this kind.' },
    ]);
    // An explicit null on create means no value, not the default.
    expect(resolveValues(defs, undefined, { a: null, b: "x" }).values).toEqual({ b: "x" });
  });

  it("merges per key on update, null clears, stored values of gone definitions are dropped, refs only for given keys", () => {
    const r = resolveValues(defs, { a: 1, b: "x", c: 3, gone: true }, { a: null, b: "y" });
    expect(r).toEqual({ values: { b: "y", c: 3 }, issues: [], references: [] });
    expect(resolveValues(defs, { a: 1, b: "x" }, { b: null }).issues).toEqual([{ field: "custom_fields.b", msg: "Required." }]);
    expect(resolveValues(defs, { b: "x" }, { a: "nine" }).issues).toEqual([{ field: "custom_fields.a", msg: "Must be a whole number." }]);
  });
});

describe("definitionIssues", () => {
  const fields = (over: Partial<CustomFieldDefinition>) => definitionIssues(def(over), KINDS).map((i) => i.field);
  it("checks a definition as a whole", () => {
    expect(fields({})).toEqual([]);
    expect(fields({ name: "Bad" })).toEqual(["name"]);
    expect(fields({ kinds: [] })).toEqual(["kinds"]);
    expect(fields({ kinds: ["rack"] })).toEqual(["kinds"]);
    expect(fields({ type: "selection" })).toEqual(["choices"]);
    expect(fields({ type: "selection", choices: ["a", "a"] })).toEqual(["choices"]);
    expect(fields({ choices: ["a"] })).toEqual(["choices"]);
    expect(fields({ type: "reference" })).toEqual(["reference_kind"]);
    expect(fields({ type: "reference", reference_kind: "nope" })).toEqual(["reference_kind"]);
    expect(fields({ regex: "(" })).toEqual(["regex"]);
    expect(fields({ type: "integer", regex: "a" })).toEqual(["regex"]);
    expect(fields({ min_value: 1 })).toEqual(["min_value"]);
    expect(fields({ type: "integer", min_value: 3, max_value: 1 })).toEqual(["max_value"]);
    expect(fields({ type: "integer", min_length: 1 })).toEqual(["min_length"]);
    expect(fields({ min_length: 5, max_length: 1 })).toEqual(["max_length"]);
    expect(fields({ type: "integer", default_value: "x" })).toEqual(["default"]);
    expect(fields({ type: "selection", choices: ["a"], default_value: "a" })).toEqual([]);
  });
});

describe("filterValue", () => {
  it("reads a query value as the field's type", () => {
    expect(filterValue(def({ type: "integer" }), "12")).toBe(12);
    expect(filterValue(def({ type: "integer" }), "1.5")).toBeUndefined();
    expect(filterValue(def({ type: "decimal" }), "1.5")).toBe(1.5);
    expect(filterValue(def({ type: "decimal" }), "")).toBeUndefined();
    expect(filterValue(def({ type: "boolean" }), "true")).toBe(true);
    expect(filterValue(def({ type: "boolean" }), "yes")).toBeUndefined();
    expect(filterValue(def({ type: "date" }), "2026-13-01")).toBeUndefined();
    expect(filterValue(def({ type: "text" }), "a b")).toBe("a b");
  });
});
