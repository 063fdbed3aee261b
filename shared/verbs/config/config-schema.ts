// The JSON Schema of a lab file (GET /config/schema.json, docs/cli.md), built from the configuration
// kinds: each kind's fields with the import's own rules (valibot -> JSON Schema), its references as
// keys, its links as lists of keys, and nothing else (additionalProperties: false), so an editor with a
// YAML language server flags an unknown kind or field where it is typed.
import { toJsonSchema } from "@valibot/to-json-schema";
import { API_KINDS } from "./api-kinds/index.ts";
import { CONFIG_KINDS, SECRET_FIELD } from "./config-kinds.ts";

type JsonSchema = Record<string, unknown>;

export const CONFIG_SCHEMA_ID = "/api/v1/config/schema.json";

export function configSchema(): JsonSchema {
  const kinds: Record<string, JsonSchema> = {};
  for (const kind of CONFIG_KINDS) {
    const row = toJsonSchema(kind.importKind.schema, { errorMode: "ignore" }) as { properties?: Record<string, JsonSchema> };
    const properties: Record<string, JsonSchema> = {
      key: { type: "string", minLength: 1, maxLength: 200, description: `The entry's stable key; default: its ${kind.nameField}.` },
    };
    // x-secret, x-ref and x-link are ours (JSON Schema ignores unknown keywords): the CLI reads them to
    // refuse a literal secret and a dangling reference before anything is sent.
    for (const field of kind.fields)
      properties[field] = { ...(row.properties?.[field] ?? {}), ...(SECRET_FIELD.test(field) ? { "x-secret": true } : {}) };
    for (const ref of kind.refs)
      properties[ref.field] = { type: ["string", "null"], description: `The key of a ${ref.kind} entry.`, "x-ref": ref.kind };
    for (const link of kind.links)
      properties[link.field] = {
        type: "array",
        items: { type: "string" },
        description: `Keys of ${link.kind} entries.`,
        "x-link": link.kind,
      };
    kinds[kind.key] = {
      type: "array",
      "x-name-field": kind.nameField,
      items: { type: "object", properties, additionalProperties: false },
    };
  }
  // The API kinds (docs/adr/0507) describe their own fields; x-ref-any names `<kind>/<key>` values and
  // x-secret-names the members of an object whose names mark secrets (an http monitor's Authorization).
  for (const kind of API_KINDS) {
    const key = {
      type: "string",
      minLength: 1,
      maxLength: 200,
      description: kind.nameField ? `The entry's stable key; default: its ${kind.nameField}.` : "The entry's stable key (required).",
    };
    kinds[kind.key] = {
      type: "array",
      "x-name-field": kind.nameField,
      items: {
        type: "object",
        properties: { key, ...kind.schema },
        additionalProperties: false,
        ...(kind.nameField ? {} : { required: ["key"] }),
      },
    };
  }
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: CONFIG_SCHEMA_ID,
    title: "Lab file (configuration as code)",
    type: "object",
    properties: {
      owner: {
        type: "string",
        minLength: 1,
        maxLength: 100,
        description: "The name of the set of objects this file owns (default: default).",
      },
      ...kinds,
    },
    additionalProperties: false,
  };
}
