// Administration (issue 15; spec/catalogue.tsv, groups admin-db and certificates): the record of database backups and
// snapshots (the archives themselves live on disk and optionally in S3; a row is written only once its
// archive is complete and its checksum re-read), the TLS certificates the Node entry can serve, and the
// ACME http-01 challenge answers any process may be asked for while an order is open.
import { sql } from "drizzle-orm";
import { bigint, boolean, index, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, tz } from "./columns.ts";

export const dbBackups = pgTable(
  "db_backups",
  {
    id: serial("id").primaryKey(),
    /** backup (a database dump alone) | snapshot (dump, uploads, vault key id, manifest) */
    kind: text("kind").notNull(),
    /** The archive's file name inside the backup directory (cb-*.sql.gz / cb-snapshot-*.tar.gz). */
    filename: text("filename").notNull(),
    size_bytes: bigint("size_bytes", { mode: "number" }).notNull(),
    /** Hex SHA-256 of the archive file, also written in its manifest. */
    sha256: text("sha256").notNull(),
    /** pg_dump | copy | pglite */
    method: text("method").notNull(),
    /** When the archive was read back and its checksum matched (a "verified backup"). */
    verified_at: tz("verified_at"),
    /** The object key when the archive was also uploaded to the S3 target. */
    s3_key: text("s3_key"),
    s3_uploaded_at: tz("s3_uploaded_at"),
    /** Whether the vault key itself is inside (only when the operator asked). */
    includes_vault_key: boolean("includes_vault_key").notNull().default(false),
    /** The manifest written beside the dump (tables and row counts, versions, key id). */
    manifest: jsonb("manifest").notNull().default({}),
    /** manual | schedule */
    trigger: text("trigger").notNull().default("manual"),
    /** When retention deleted the local file (the row stays as history until pruned). */
    deleted_at: tz("deleted_at"),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("db_backups_filename_idx").on(t.filename), index("db_backups_created_idx").on(t.kind, t.created_at)],
);

export const certificates = pgTable(
  "certificates",
  {
    id: serial("id").primaryKey(),
    domain: text("domain").notNull(),
    /** letsencrypt | selfsigned | imported */
    type: text("type").notNull(),
    auto_renew: boolean("auto_renew").notNull().default(true),
    is_active: boolean("is_active").notNull().default(false),
    /** http-01 | dns-01 (letsencrypt only) */
    acme_challenge: text("acme_challenge"),
    acme_staging: boolean("acme_staging").notNull().default(false),
    /** The leaf certificate followed by its chain, PEM. */
    cert_pem: text("cert_pem").notNull(),
    /** Vault ciphertext of the private key PEM (context `certificates.key_pem:<id>`); never returned. */
    key_pem: text("key_pem").notNull(),
    subject: text("subject"),
    issuer: text("issuer"),
    san: jsonb("san").$type<string[]>().notNull().default([]),
    fingerprint_sha256: text("fingerprint_sha256"),
    not_before: tz("not_before"),
    expires_at: tz("expires_at").notNull(),
    last_renewed_at: tz("last_renewed_at"),
    renew_error: text("renew_error"),
    /** The smallest expiry-warning threshold (30, 14, 3 days) already notified for this certificate. */
    warned_days: bigint("warned_days", { mode: "number" }),
    ...timestamps,
  },
  (t) => [uniqueIndex("certificates_active_idx").on(t.is_active).where(sql`is_active`), index("certificates_expiry_idx").on(t.expires_at)],
);

export const acmeChallenges = pgTable("acme_challenges", {
  /** The http-01 token (the last path segment of /.well-known/acme-challenge/<token>). */
  token: text("token").primaryKey(),
  key_authorization: text("key_authorization").notNull(),
  expires_at: tz("expires_at").notNull(),
});
