// The CSV import's reading of a file (shared/verbs/resources/import-csv.ts): cells as the JSON values the
// create body takes, columns classified (fields, references by name, cf_ custom fields, an export's
// read-only columns ignored, unknown ones refused), line numbers kept.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { HardwareCreate, HardwarePatch, Hardware } from "../../shared/schemas/hardware.ts";
import type { ApiError } from "../../shared/errors.ts";
import { cellValue, parseCsv } from "../../shared/verbs/resources/import-csv.ts";

const spec = {
  create: HardwareCreate,
  patch: HardwarePatch,
  item: Hardware,
  references: { site_id: { table: undefined as never, id: undefined as never, name: undefined as never, label: "Site" } },
};

describe("cellValue", () => {
  it("reads a cell as its field's type", () => {
    expect(cellValue(v.optional(v.nullable(v.number())), " 16.5 ")).toBe(16.5);
    expect(cellValue(v.optional(v.nullable(v.number())), "lots")).toBe("lots");
    expect(cellValue(v.optional(v.nullable(v.number())), "")).toBeNull();
    expect(cellValue(v.optional(v.number()), "")).toBeUndefined();
    expect(cellValue(v.optional(v.boolean()), "Yes")).toBe(true);
    expect(cellValue(v.optional(v.array(v.string())), "a, b,,c ")).toEqual(["a", "b", "c"]);
    expect(cellValue(v.optional(v.array(v.string())), "")).toEqual([]);
    expect(cellValue(v.optional(v.array(v.object({ port: v.number() }))), '[{"port":1}]')).toEqual([{ port: 1 }]);
    expect(cellValue(v.string(), "  keep spaces ")).toBe("  keep spaces ");
  });
});

describe("parseCsv", () => {
  it("builds bodies: fields, ids, names, cf_ columns into custom_fields, export columns ignored", () => {
    const { header, rows } = parseCsv(
      '\uFEFFid,name,site,memory_gb,tags,cf_owner,cf_cost,version,effective_status\n7,a,hq,2,"x, y",me,,3,up\n,"b\nc",,,,,12,,\n',
      spec,
    );
    expect(header).toEqual(["id", "name", "site", "memory_gb", "tags", "cf_owner", "cf_cost", "version", "effective_status"]);
    expect(rows[0]).toEqual({
      line: 2,
      id: 7,
      body: { name: "a", memory_gb: 2, tags: ["x", "y"], custom_fields: { owner: "me" } },
      names: { site_id: "hq" },
      errors: [],
    });
    // A quoted line break keeps the row whole; an empty name column clears the reference.
    expect(rows[1]).toMatchObject({
      line: 3,
      body: { name: "b\nc", memory_gb: null, tags: [], site_id: null, custom_fields: { cost: "12" } },
    });
    expect(rows[1]!.id).toBeUndefined();
  });

  it("refuses unknown and repeated columns by name, and a bad id per row", () => {
    const refused = (() => {
      try {
        parseCsv("name,colour,name\nx,y,z\n", spec);
      } catch (e) {
        return e as ApiError;
      }
    })();
    expect(refused?.extra.fields).toEqual({
      "columns.colour": expect.stringContaining('Unknown column "colour"'),
      "columns.name": 'Column "name" is given twice.',
    });
    expect(parseCsv("id,name\nabc,x\n", spec).rows[0]!.errors).toEqual([
      { field: "id", message: 'Must be a positive integer id, got "abc".' },
    ]);
  });
});
