// Users, sessions, tokens, invites, roles, MFA and the audit chain (spec 5, docs/architecture.md, API contracts).
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { timestamps, tz } from "./columns.ts";

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    display_name: text("display_name"),
    /** `pbkdf2_sha256$<iterations>$<salt_b64>$<hash_b64>`; null for accounts that cannot sign in with a password. */
    password_hash: text("password_hash"),
    /** viewer | editor | admin | demo, or the name of a custom role. */
    role: text("role").notNull().default("viewer"),
    is_active: boolean("is_active").notNull().default(true),
    is_service_account: boolean("is_service_account").notNull().default(false),
    must_change_password: boolean("must_change_password").notNull().default(false),
    failed_logins: integer("failed_logins").notNull().default(0),
    locked_until: tz("locked_until"),
    mfa_enabled: boolean("mfa_enabled").notNull().default(false),
    mfa_secret: text("mfa_secret"),
    mfa_pending_secret: text("mfa_pending_secret"),
    /** Last accepted TOTP time step, so a code cannot be replayed inside its window. */
    mfa_last_step: integer("mfa_last_step"),
    avatar_path: text("avatar_path"),
    /** The console's language (en | de | fr | es); null follows the browser (docs/adr/0479-console-i18n.md). */
    locale: text("locale"),
    last_login_at: tz("last_login_at"),
    ...timestamps,
  },
  (t) => [uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`)],
);

export const mfaBackupCodes = pgTable(
  "mfa_backup_codes",
  {
    id: serial("id").primaryKey(),
    user_id: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    code_hash: text("code_hash").notNull(),
    used_at: tz("used_at"),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [index("mfa_backup_codes_user_idx").on(t.user_id)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    user_id: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    created_at: tz("created_at").notNull().defaultNow(),
    expires_at: tz("expires_at").notNull(),
    last_seen_at: tz("last_seen_at"),
    revoked_at: tz("revoked_at"),
    ip_address: text("ip_address"),
    user_agent: text("user_agent"),
    /** The administrator acting as this user, for a masquerade session. */
    masquerade_by: integer("masquerade_by").references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [index("sessions_user_idx").on(t.user_id)],
);

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: serial("id").primaryKey(),
    user_id: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    /** Public lookup part of the token (`svc_<prefix>_<secret>`); the secret is only stored hashed. */
    prefix: text("prefix").notNull(),
    /** `{salt_hex}:{hmac_hex}`: HMAC-SHA256 of the token keyed by a per-token salt. */
    token_hash: text("token_hash").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    expires_at: tz("expires_at"),
    last_used_at: tz("last_used_at"),
    revoked_at: tz("revoked_at"),
    created_by: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    /** The API token that created this one (null when a session did): revoking it revokes this one too. */
    parent_token_id: integer("parent_token_id").references((): AnyPgColumn => apiTokens.id, { onDelete: "set null" }),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("api_tokens_prefix_idx").on(t.prefix),
    index("api_tokens_user_idx").on(t.user_id),
    index("api_tokens_parent_idx").on(t.parent_token_id),
  ],
);

/**
 * Failed password sign-ins per submitted e-mail (lower-cased), whether or not an account has it, so the
 * lockout answers a known and an unknown address alike (docs/adr/0322). users.failed_logins and
 * locked_until mirror a known account's row for the administrators' view.
 */
export const loginFailures = pgTable("login_failures", {
  email: text("email").primaryKey(),
  failed: integer("failed").notNull().default(0),
  locked_until: tz("locked_until"),
  updated_at: tz("updated_at").notNull().defaultNow(),
});

export const invites = pgTable("invites", {
  id: serial("id").primaryKey(),
  email: text("email").notNull(),
  role: text("role").notNull(),
  prefix: text("prefix").notNull().unique(),
  token_hash: text("token_hash").notNull(),
  expires_at: tz("expires_at").notNull(),
  accepted_at: tz("accepted_at"),
  revoked_at: tz("revoked_at"),
  created_by: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  created_at: tz("created_at").notNull().defaultNow(),
});

export const customRoles = pgTable("custom_roles", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  description: text("description"),
  scopes: jsonb("scopes").$type<string[]>().notNull(),
  ...timestamps,
});

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    timestamp: tz("timestamp").notNull(),
    level: text("level").notNull().default("info"),
    category: text("category").notNull(),
    action: text("action").notNull(),
    /** No foreign key: the history of a deleted user stays. */
    actor_id: integer("actor_id"),
    actor_email: text("actor_email"),
    role_at_time: text("role_at_time"),
    entity_type: text("entity_type"),
    entity_id: text("entity_id"),
    diff: jsonb("diff"),
    ip_address: text("ip_address"),
    previous_hash: text("previous_hash"),
    log_hash: text("log_hash").notNull(),
  },
  (t) => [
    index("audit_log_actor_idx").on(t.actor_id),
    index("audit_log_entity_idx").on(t.entity_type, t.entity_id),
    index("audit_log_timestamp_idx").on(t.timestamp),
  ],
);

/** First outcomes of high-impact actions, replayed when the same idempotency key comes again. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    key: text("key").notNull(),
    action: text("action").notNull(),
    actor_id: integer("actor_id"),
    status: integer("status").notNull(),
    body: jsonb("body"),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.key, t.action] })],
);

/** Fixed-window counters of the database rate-limit store (used when no Redis is configured). */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    key: text("key").notNull(),
    window_start: tz("window_start").notNull(),
    hits: integer("hits").notNull().default(0),
  },
  // The prune deletes by window_start: with per-route keys the table holds many rows per client, and
  // without this index every prune scanned all of them.
  (t) => [primaryKey({ columns: [t.key, t.window_start] }), index("rate_limit_counters_window_start_idx").on(t.window_start)],
);
