// The hand-written exposition encoder (text format 0.0.4): escaping, number formatting, line shape.
import { describe, expect, it } from "vitest";
import {
  escapeHelp,
  escapeLabelValue,
  type Family,
  familyHeader,
  formatValue,
  pageText,
  sampleLine,
  sampleLinesOverLast,
} from "../../../shared/metrics/exposition.ts";

const plain: Family = { name: "svc_x_total", help: "Things.", type: "gauge", labels: [] };
const labelled: Family = { name: "svc_y", help: "Per thing.", type: "gauge", labels: ["name", "kind"] };

describe("escapeLabelValue", () => {
  it("escapes backslash, double quote and newline, and nothing else", () => {
    expect(escapeLabelValue('we"ird\\name\nx')).toBe('we\\"ird\\\\name\\nx');
    expect(escapeLabelValue("tab\there {braces} 'single' é")).toBe("tab\there {braces} 'single' é");
  });

  it("escapes a backslash before a quote as two separate escapes", () => {
    expect(escapeLabelValue('\\"')).toBe('\\\\\\"');
  });

  it("writes null and undefined as the empty string", () => {
    expect(escapeLabelValue(null)).toBe("");
    expect(escapeLabelValue(undefined)).toBe("");
  });
});

describe("escapeHelp", () => {
  it("escapes backslash and newline but leaves double quotes", () => {
    expect(escapeHelp('a\\b\nc "d"')).toBe('a\\\\b\\nc "d"');
  });
});

describe("formatValue", () => {
  it("writes integers plainly", () => {
    expect(formatValue(0)).toBe("0");
    expect(formatValue(-0)).toBe("0");
    expect(formatValue(42)).toBe("42");
    expect(formatValue(-7)).toBe("-7");
    expect(formatValue(10_000_000)).toBe("10000000");
  });

  it("writes other numbers as JavaScript prints them", () => {
    expect(formatValue(1.5)).toBe("1.5");
    expect(formatValue(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(formatValue(1e21)).toBe("1e+21");
    expect(formatValue(5e-7)).toBe("5e-7");
  });

  it("writes NaN and the infinities as the format spells them", () => {
    expect(formatValue(Number.NaN)).toBe("NaN");
    expect(formatValue(Infinity)).toBe("+Inf");
    expect(formatValue(-Infinity)).toBe("-Inf");
  });
});

describe("familyHeader", () => {
  it("writes HELP then TYPE", () => {
    expect(familyHeader(plain)).toBe("# HELP svc_x_total Things.\n# TYPE svc_x_total gauge\n");
  });

  it("escapes the HELP text", () => {
    expect(familyHeader({ ...plain, help: "one\ntwo\\" })).toBe("# HELP svc_x_total one\\ntwo\\\\\n# TYPE svc_x_total gauge\n");
  });
});

describe("sampleLine", () => {
  it("writes a family without labels as name and value", () => {
    expect(sampleLine(plain, [], 3)).toBe("svc_x_total 3\n");
  });

  it("writes labels in the family's order, escaped, null as empty", () => {
    expect(sampleLine(labelled, ['a"b', null], 2.5)).toBe('svc_y{name="a\\"b",kind=""} 2.5\n');
  });

  it("refuses a label count that does not match the family", () => {
    expect(() => sampleLine(labelled, ["only one"], 1)).toThrow(/takes 2 label values/);
  });

  it("keeps a value with a newline on one line", () => {
    const line = sampleLine(labelled, ["x\ny", "vm"], 1);
    expect(line.split("\n")).toEqual(['svc_y{name="x\\ny",kind="vm"} 1', ""]);
  });
});

describe("sampleLinesOverLast", () => {
  it("writes the same lines as sampleLine, one per value of the last label", () => {
    const f: Family = { name: "svc_z", help: "", type: "gauge", labels: ["name", "status"] };
    const pairs = [
      ["up", 1],
      ['do"wn', 0],
    ] as const;
    expect(sampleLinesOverLast(f, ["a\\b\n"], pairs)).toBe(pairs.map(([s, v]) => sampleLine(f, ["a\\b\n", s], v)).join(""));
    expect(sampleLinesOverLast(f, ["x"], pairs)).toBe('svc_z{name="x",status="up"} 1\nsvc_z{name="x",status="do\\"wn"} 0\n');
  });

  it("works for a family with a single label", () => {
    const f: Family = { name: "svc_one", help: "", type: "gauge", labels: ["kind"] };
    expect(sampleLinesOverLast(f, [], [["vm", 2]])).toBe('svc_one{kind="vm"} 2\n');
  });

  it("refuses a label count that does not match the family", () => {
    expect(() => sampleLinesOverLast(labelled, [], [["x", 1]])).toThrow(/takes 2 label values/);
  });
});

describe("pageText", () => {
  it("writes each row's lines in row order, and nothing for no rows", () => {
    const rows = [
      { name: "a", v: 1 },
      { name: "b", v: 2 },
    ];
    const line = (r: (typeof rows)[number]) => sampleLine(labelled, [r.name, "k"], r.v);
    expect(pageText(rows, line)).toBe(rows.map(line).join(""));
    expect(pageText([], line)).toBe("");
  });
});
