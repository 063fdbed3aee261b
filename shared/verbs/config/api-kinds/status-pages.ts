// Status pages in a lab file (docs/cli.md, docs/adr/0507): the API's page, keyed by its slug, with its
// sections' items naming monitors and services by their keys in the file (`monitor: nas-ping`,
// `service: shop`). An item's badge key is written only where it is not the one the server derives from
// the public name, so a file that never names one does not differ from what the server stored.
import { toJsonSchema } from "@valibot/to-json-schema";
import { slugOfName } from "../../../domain/status-pages/item-keys.ts";
import { StatusPageBody, StatusPagePatchBody } from "../../../schemas/status-pages.ts";
import { createStatusPage, deleteStatusPage, getStatusPage, patchStatusPage } from "../../status-pages/pages.ts";
import { type ApiConfigKind, type NamedKey, NOT_YET, type Row } from "../api-kind.ts";

/** The item kinds that name another entry: the item's field and the kind of the file it names. */
const ITEM_REFS = {
  monitor: { field: "monitor", column: "monitor_id", kind: "monitors" },
  service: { field: "service", column: "service_id", kind: "services" },
};

type Item = Row & { kind: string };
const sectionsOf = (fields: Row) => (Array.isArray(fields.sections) ? (fields.sections as { items?: Item[] }[]) : []);
const refOf = (item: Item) => ITEM_REFS[item.kind as keyof typeof ITEM_REFS];

/** The write body's JSON Schema, its item ids replaced by keys. */
function pageSchema(): Record<string, Record<string, unknown>> {
  const body = toJsonSchema(StatusPageBody, { errorMode: "ignore" }) as { properties: Record<string, Record<string, unknown>> };
  const item = {
    type: "object",
    required: ["kind"],
    properties: {
      kind: { enum: ["monitor", "service", "tag"] },
      monitor: { type: "string", description: "The key of a monitors entry (kind: monitor).", "x-ref": "monitors" },
      service: { type: "string", description: "The key of a services entry (kind: service).", "x-ref": "services" },
      tag: { type: "string" },
      public_name: { type: ["string", "null"], minLength: 1, maxLength: 200 },
      key: { type: ["string", "null"], description: "The item's badge key; default: a slug of its public name." },
    },
    additionalProperties: false,
  };
  const section = {
    type: "object",
    required: ["name"],
    properties: { name: { type: "string" }, show_messages: { type: "boolean" }, items: { type: "array", items: item } },
    additionalProperties: false,
  };
  return { ...body.properties, sections: { type: "array", items: section } };
}

export const statusPagesKind: ApiConfigKind = {
  key: "status_pages",
  table: "status_pages",
  nameField: "slug",
  schema: pageSchema(),
  references(fields) {
    const named: NamedKey[] = [];
    for (const [i, section] of sectionsOf(fields).entries())
      for (const [j, item] of (section.items ?? []).entries()) {
        const ref = refOf(item);
        if (ref && typeof item[ref.field] === "string")
          named.push({ path: `sections.${i}.items.${j}.${ref.field}`, kind: ref.kind, key: item[ref.field] as string });
      }
    return named;
  },
  async read(ctx, ids, keyOf) {
    const out = new Map<number, Row>();
    for (const id of ids) {
      const { id: _id, created_at: _c, updated_at: _u, sections, ...page } = await getStatusPage({ ctx, input: { id } });
      const fileSections = sections.map((s) => ({
        ...s,
        items: s.items.map((i) => {
          const item: Row = { kind: i.kind };
          const ref = refOf(i as Item);
          if (ref) item[ref.field] = keyOf(ref.kind, (i as Row)[ref.column] as number);
          if (i.tag !== null) item.tag = i.tag;
          if (i.public_name !== null) item.public_name = i.public_name;
          if (i.key !== slugOfName(i.public_name ?? i.tag ?? "")) item.key = i.key;
          return item;
        }),
      }));
      out.set(id, { ...page, sections: fileSections });
    }
    return out;
  },
  comparable(field, stored, given) {
    // A section that leaves show_messages out means the default (false), as the API takes it.
    if (field !== "sections" || !Array.isArray(stored) || !Array.isArray(given)) return stored;
    return stored.map((section: Row, i) => {
      const g = given[i] as Row | undefined;
      if (!g || "show_messages" in g || section.show_messages !== false) return section;
      const { show_messages: _, ...rest } = section;
      return rest;
    });
  },
  body(fields, idOf) {
    if (!("sections" in fields)) return { ...fields };
    const sections = sectionsOf(fields).map((s) => ({
      ...s,
      items: (s.items ?? []).map((item) => {
        const ref = refOf(item);
        if (!ref) return item;
        const { [ref.field]: key, ...rest } = item;
        return { ...rest, [ref.column]: typeof key === "string" ? (idOf(ref.kind, key) ?? NOT_YET) : key };
      }),
    }));
    return { ...fields, sections };
  },
  createRule: StatusPageBody,
  patchRule: StatusPagePatchBody,
  async create(ctx, body) {
    return (await createStatusPage({ ctx, input: body as never })).id;
  },
  async update(ctx, id, body) {
    await patchStatusPage({ ctx, input: { id, body: body as never } });
  },
  async remove(ctx, id) {
    await deleteStatusPage({ ctx, input: { id } });
  },
};
