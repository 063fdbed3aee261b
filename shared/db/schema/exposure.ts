// Exposure (issue 17; spec/catalogue.tsv, group cve): the CVE feed imported from NVD's CVE API 2.0 format,
// its CPE applicability rows indexed for matching, the identity (vendor, product, version) an asset is
// assessed under, and the privacy and threat analysis of the network: its ignores and the snapshots
// (score, deductions, checks) taken after each discovery run or on demand.
import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, real, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tz } from "./columns.ts";
import { hardware } from "./inventory.ts";

export const cveEntries = pgTable(
  "cve_entries",
  {
    cve_id: text("cve_id").primaryKey(),
    published_at: tz("published_at"),
    /** NVD's lastModified: the incremental import's cursor. */
    last_modified_at: tz("last_modified_at").notNull(),
    vuln_status: text("vuln_status"),
    summary: text("summary"),
    /** critical | high | medium | low | none, from the best CVSS metric present (v4.0, v3.1, v3.0, v2). */
    severity: text("severity"),
    cvss_score: real("cvss_score"),
    cvss_vector: text("cvss_vector"),
    /** NVD's `configurations` as imported (nodes with operator, negate and cpeMatch), for AND/OR evaluation. */
    configurations: jsonb("configurations").notNull().default([]),
    /** The feed generation that last wrote this row. */
    generation: integer("generation").notNull().default(0),
  },
  (t) => [
    index("cve_entries_modified_idx").on(t.last_modified_at),
    index("cve_entries_severity_idx").on(t.severity),
    // GET /cve/search's order: newest published first.
    index("cve_entries_published_idx").on(t.published_at.desc().nullsLast(), t.cve_id.desc()),
    // GET /cve/search's text filter (ILIKE over the summary).
    index("cve_entries_summary_trgm_idx").using("gin", sql`lower(${t.summary}) gin_trgm_ops`),
  ],
);

/** One cpeMatch of a CVE's configurations: the columns cve_cpe_matches and its staging share. */
const cpeMatchColumns = () => ({
  /** Position in configurations: configuration index and node index, for evidence. */
  config_index: integer("config_index").notNull(),
  node_index: integer("node_index").notNull(),
  /** The CPE 2.3 formatted string (cpe:2.3:part:vendor:product:version:...). */
  criteria: text("criteria").notNull(),
  part: text("part").notNull(),
  vendor: text("vendor").notNull(),
  product: text("product").notNull(),
  /** The CPE's own version field (`*`, `-` or a value). */
  version: text("version").notNull(),
  version_start_including: text("version_start_including"),
  version_start_excluding: text("version_start_excluding"),
  version_end_including: text("version_end_including"),
  version_end_excluding: text("version_end_excluding"),
  vulnerable: boolean("vulnerable").notNull(),
});

export const cveCpeMatches = pgTable(
  "cve_cpe_matches",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    cve_id: text("cve_id")
      .notNull()
      .references(() => cveEntries.cve_id, { onDelete: "cascade" }),
    ...cpeMatchColumns(),
  },
  (t) => [index("cve_cpe_matches_product_idx").on(t.vendor, t.product), index("cve_cpe_matches_cve_idx").on(t.cve_id)],
);

/**
 * A sync in progress (issue 36 item 7): every record read is staged here, and only once every source
 * parsed to its end is the staging applied to cve_entries and cve_cpe_matches in one transaction, then
 * emptied; a failed sync empties it and changes nothing. Rejected CVEs are staged as `rejected` (the
 * apply deletes them). One sync at a time (the cve_sync job's lock), so no run id.
 */
export const cveSyncStaging = pgTable("cve_sync_staging", {
  cve_id: text("cve_id").primaryKey(),
  rejected: boolean("rejected").notNull().default(false),
  published_at: tz("published_at"),
  /** A record read twice keeps the newer; a rejected one without a time sorts last (infinity). */
  last_modified_at: tz("last_modified_at").notNull(),
  vuln_status: text("vuln_status"),
  summary: text("summary"),
  severity: text("severity"),
  cvss_score: real("cvss_score"),
  cvss_vector: text("cvss_vector"),
  configurations: jsonb("configurations").notNull().default([]),
});

/**
 * The cpeMatch rows of the staged records (cve_cpe_matches' columns), applied with them. A record read
 * twice leaves the older one's rows behind; its last_modified_at tells them apart at the apply.
 */
export const cveSyncStagingMatches = pgTable("cve_sync_staging_matches", {
  cve_id: text("cve_id").notNull(),
  last_modified_at: tz("last_modified_at").notNull(),
  ...cpeMatchColumns(),
});

export const assetIdentities = pgTable(
  "asset_identities",
  {
    /** hardware | compute_unit | service */
    entity_type: text("entity_type").notNull(),
    entity_id: integer("entity_id").notNull(),
    /** CPE-normalised vendor and product (lower case, `_` for spaces). */
    vendor: text("vendor"),
    product: text("product"),
    version: text("version"),
    /** operator (set through the API) | inventory (derived from the inventory's fields) */
    provenance: text("provenance").notNull().default("operator"),
    revision: integer("revision").notNull().default(1),
    updated_at: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.entity_type, t.entity_id] }), index("asset_identities_product_idx").on(t.vendor, t.product)],
);

export const privacyIgnores = pgTable(
  "privacy_ignores",
  {
    id: serial("id").primaryKey(),
    rule_id: text("rule_id").notNull(),
    /** null = the rule is ignored for every device. */
    hardware_id: integer("hardware_id").references(() => hardware.id, { onDelete: "cascade" }),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("privacy_ignores_rule_idx").on(t.rule_id, sql`coalesce(${t.hardware_id}, 0)`)],
);

export const privacySnapshots = pgTable(
  "privacy_snapshots",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    taken_at: tz("taken_at").notNull().defaultNow(),
    score: integer("score").notNull(),
    grade: text("grade").notNull(),
    critical_count: integer("critical_count").notNull().default(0),
    warning_count: integer("warning_count").notNull().default(0),
    info_count: integer("info_count").notNull().default(0),
    /** [{rule_id, title, points, severity, remediation_id, hardware_id, category, evidence}] */
    deductions: jsonb("deductions").notNull().default([]),
    /** [{check_id, status, evidence, detected_at, hardware_id?}] */
    checks: jsonb("checks").notNull().default([]),
    /** discovery | manual | schedule, and the scan job that triggered it */
    trigger: text("trigger").notNull().default("manual"),
    scan_job_id: integer("scan_job_id"),
  },
  (t) => [index("privacy_snapshots_taken_idx").on(t.taken_at)],
);

/** The CVE feed's state: one row (id 1), written by each sync (docs/cve.md). */
export const cveFeedState = pgTable("cve_feed_state", {
  id: integer("id").primaryKey().default(1),
  /** Completed syncs so far; 0 = never completed. */
  generation: integer("generation").notNull().default(0),
  /** The newest lastModified imported: the incremental cursor. */
  newest_modified_at: tz("newest_modified_at"),
  /** The sources the cursor was built from; another list means a full pass again. */
  sources: jsonb("sources").$type<string[]>().notNull().default([]),
  /** Whether the last completed sync read every configured source to its end. */
  coverage_complete: boolean("coverage_complete").notNull().default(false),
  completed_at: tz("completed_at"),
  last_attempt_at: tz("last_attempt_at"),
  last_success_at: tz("last_success_at"),
  last_error: text("last_error"),
  /** Counts of the last completed sync: {read, inserted, updated, unchanged, removed, invalid}. */
  last_counts: jsonb("last_counts").notNull().default({}),
});

/** Which (asset, CVE) findings were already notified: each is sent once. */
export const cveNotified = pgTable(
  "cve_notified",
  {
    entity_type: text("entity_type").notNull(),
    entity_id: integer("entity_id").notNull(),
    cve_id: text("cve_id").notNull(),
    notified_at: tz("notified_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.entity_type, t.entity_id, t.cve_id] })],
);
