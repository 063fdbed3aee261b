// Sign-in through OAuth 2.0 / OpenID Connect (issue 16; spec/catalogue.tsv, group oauth): the short-lived,
// single-use authorization requests (state, nonce and PKCE verifier kept server-side), the provider
// identities bound to users (issuer + subject, never the e-mail alone), and the 60-second one-time codes
// the callback redirects with, which GET /auth/exchange turns into a session token.
import { index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tz } from "./columns.ts";
import { sessions, users } from "./identity.ts";

export const oauthStates = pgTable(
  "oauth_states",
  {
    /** Hex SHA-256 of the `state` parameter; the state itself is never stored. */
    state_hash: text("state_hash").primaryKey(),
    /** The provider name (github, google, microsoft, or an OIDC provider's slug). */
    provider: text("provider").notNull(),
    /** login | link | bootstrap */
    purpose: text("purpose").notNull().default("login"),
    nonce: text("nonce"),
    /** PKCE code_verifier (S256). */
    code_verifier: text("code_verifier"),
    redirect_uri: text("redirect_uri").notNull(),
    invite_token: text("invite_token"),
    /** The signed-in user who asked to link this provider (purpose link). */
    link_user_id: integer("link_user_id").references(() => users.id, { onDelete: "cascade" }),
    created_at: tz("created_at").notNull().defaultNow(),
    expires_at: tz("expires_at").notNull(),
  },
  (t) => [index("oauth_states_expiry_idx").on(t.expires_at)],
);

export const oauthIdentities = pgTable(
  "oauth_identities",
  {
    id: serial("id").primaryKey(),
    user_id: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    /** The ID token's `iss` (or the provider's fixed issuer for GitHub: https://github.com). */
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    /** The verified e-mail the identity had when last seen. */
    email: text("email"),
    created_at: tz("created_at").notNull().defaultNow(),
    last_login_at: tz("last_login_at"),
  },
  (t) => [uniqueIndex("oauth_identities_subject_idx").on(t.issuer, t.subject), index("oauth_identities_user_idx").on(t.user_id)],
);

export const authExchangeCodes = pgTable("auth_exchange_codes", {
  /** Hex SHA-256 of the one-time code; the code itself is only in the redirect. */
  code_hash: text("code_hash").primaryKey(),
  session_id: text("session_id")
    .notNull()
    .references(() => sessions.id, { onDelete: "cascade" }),
  expires_at: tz("expires_at").notNull(),
});
