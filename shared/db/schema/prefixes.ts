// IP prefixes and VRFs (issue 33 item 4, docs/ipam.md, ADR 0486). A prefix is a PostgreSQL `cidr` so
// containment is the database's `<<` / `>>` over a GiST index; nesting is computed, never stored. A
// prefix without a VRF is in the global table.
import { sql } from "drizzle-orm";
import { boolean, check, cidr, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns.ts";
import { sites, vlans } from "./inventory.ts";

export const vrfs = pgTable(
  "vrfs",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** The route distinguisher (e.g. 65000:1), unique when given. */
    rd: text("rd"),
    description: text("description"),
    /** Refuse a second prefix with the same network in this VRF. */
    enforce_unique: boolean("enforce_unique").notNull().default(true),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex("vrfs_name_idx").on(t.name), uniqueIndex("vrfs_rd_idx").on(t.rd)],
);

export const prefixes = pgTable(
  "prefixes",
  {
    id: serial("id").primaryKey(),
    prefix: cidr("prefix").notNull(),
    vrf_id: integer("vrf_id").references(() => vrfs.id, { onDelete: "restrict" }),
    status: text("status").notNull().default("active"),
    is_pool: boolean("is_pool").notNull().default(false),
    mark_utilized: boolean("mark_utilized").notNull().default(false),
    site_id: integer("site_id").references(() => sites.id, { onDelete: "set null" }),
    vlan_id: integer("vlan_id").references(() => vlans.id, { onDelete: "set null" }),
    description: text("description"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [
    index("prefixes_prefix_gist_idx").using("gist", t.prefix.op("inet_ops")),
    index("prefixes_vrf_prefix_idx").on(t.vrf_id, t.prefix),
    index("prefixes_site_idx").on(t.site_id),
    index("prefixes_status_idx").on(t.status),
    check("prefixes_status", sql`${t.status} in ('container', 'active', 'reserved', 'deprecated')`),
  ],
);
