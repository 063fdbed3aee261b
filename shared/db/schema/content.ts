// Documentation, maps, topologies, the saved graph layout, the hostname/OUI knowledge base and
// uploaded files.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { timestamps } from "./columns.ts";
import { users } from "./identity.ts";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

export const docs = pgTable(
  "docs",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    body_md: text("body_md").notNull().default(""),
    category: text("category"),
    pinned: boolean("pinned").notNull().default(false),
    created_by: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [index("docs_title_trgm_idx").using("gin", sql`lower(${t.title}) gin_trgm_ops`)],
);

/** Which inventory entities a document is attached to. */
export const docEntities = pgTable(
  "doc_entities",
  {
    doc_id: integer("doc_id")
      .notNull()
      .references(() => docs.id, { onDelete: "cascade" }),
    entity_type: text("entity_type").notNull(),
    entity_id: integer("entity_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.doc_id, t.entity_type, t.entity_id] }), index("doc_entities_entity_idx").on(t.entity_type, t.entity_id)],
);

export const maps = pgTable("maps", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description"),
  background: text("background"),
  ...timestamps,
});

export const mapEntities = pgTable(
  "map_entities",
  {
    map_id: integer("map_id")
      .notNull()
      .references(() => maps.id, { onDelete: "cascade" }),
    entity_type: text("entity_type").notNull(),
    entity_id: integer("entity_id").notNull(),
    x: doublePrecision("x"),
    y: doublePrecision("y"),
  },
  (t) => [primaryKey({ columns: [t.map_id, t.entity_type, t.entity_id] })],
);

/** Geographic pins of entities (one per entity). */
export const mapPins = pgTable(
  "map_pins",
  {
    entity_type: text("entity_type").notNull(),
    entity_id: integer("entity_id").notNull(),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    label: text("label"),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.entity_type, t.entity_id] })],
);

export const topologies = pgTable("topologies", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description"),
  ...timestamps,
});

export const topologyNodes = pgTable(
  "topology_nodes",
  {
    topology_id: integer("topology_id")
      .notNull()
      .references(() => topologies.id, { onDelete: "cascade" }),
    node_id: text("node_id").notNull(),
    x: doublePrecision("x"),
    y: doublePrecision("y"),
  },
  (t) => [primaryKey({ columns: [t.topology_id, t.node_id] })],
);

/** Saved positions of graph nodes (node ids like hw-1, svc-2) per named layout. */
export const graphLayouts = pgTable("graph_layouts", {
  name: text("name").primaryKey(),
  positions: jsonb("positions").$type<Record<string, { x: number; y: number }>>().notNull().default({}),
  ...timestamps,
});

export const kbHostnames = pgTable("kb_hostnames", {
  id: serial("id").primaryKey(),
  pattern: text("pattern").notNull().unique(),
  vendor: text("vendor"),
  device_type: text("device_type"),
  notes: text("notes"),
  ...timestamps,
});

export const kbOui = pgTable("kb_oui", {
  prefix: text("prefix").primaryKey(),
  vendor: text("vendor").notNull(),
  notes: text("notes"),
  ...timestamps,
});

/** Uploaded files (icons, favicon, branding, doc images, avatars), kept in the database so every instance serves them. */
export const uploads = pgTable(
  "uploads",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    content_type: text("content_type").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    bytes: bytea("bytes").notNull(),
    created_by: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [uniqueIndex("uploads_kind_name_idx").on(t.kind, t.name)],
);
