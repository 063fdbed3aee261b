// The browser sign-in of the `lab` CLI (issue 34, docs/adr/0504): the one-time authorization codes the
// console's approval creates, bound to the CLI's PKCE challenge and loopback redirect URI. The code
// itself is only in the redirect; a used row is kept until it has long expired, so a replay is known
// as one (and revokes the token the first use issued).
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tz } from "./columns.ts";
import { apiTokens, users } from "./identity.ts";

export const cliLoginCodes = pgTable(
  "cli_login_codes",
  {
    id: serial("id").primaryKey(),
    /** Hex SHA-256 of the code. */
    code_hash: text("code_hash").notNull(),
    user_id: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** What the CLI said it is (shown on the approval page; the CLI's own word, not verified). */
    client_name: text("client_name").notNull(),
    /** The new token's label, scopes and expiry, as approved. */
    label: text("label").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    token_expires_at: tz("token_expires_at"),
    /** PKCE S256: base64url(SHA-256(code_verifier)). */
    code_challenge: text("code_challenge").notNull(),
    /** The loopback URI the code was sent to; the exchange must name the same one. */
    redirect_uri: text("redirect_uri").notNull(),
    created_at: tz("created_at").notNull().defaultNow(),
    expires_at: tz("expires_at").notNull(),
    used_at: tz("used_at"),
    /** The token the code was exchanged for (revoked when the code is replayed). */
    token_id: integer("token_id").references(() => apiTokens.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("cli_login_codes_hash_idx").on(t.code_hash), index("cli_login_codes_expiry_idx").on(t.expires_at)],
);
