// POST /auth/service-account (admin): a user row that can never sign in with a password (no hash; login
// refuses null hashes) plus its first API token, in one transaction.
import { ROLE_SCOPES } from "../../auth/scopes.ts";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { type PublicUser, publicUser } from "../auth/public-user.ts";
import { defineVerb } from "../verb.ts";
import { type ExpiryInput, resolveExpiry } from "./expiry.ts";
import { requireGrantor, requireWithinGrant, scopesToGrant, scopesWithinRole } from "./grant.ts";
import { insertToken } from "./insert-token.ts";
import { childExpiry, lockCallerToken } from "./lineage.ts";
import type { IssuedToken } from "./token-view.ts";
import { isUniqueViolation } from "./unique-violation.ts";

export const SERVICE_ACCOUNT_DOMAIN = "service-accounts.invalid";

export interface CreateServiceAccountInput extends ExpiryInput {
  name: string;
  role?: "viewer" | "editor" | "admin" | undefined;
  scopes?: string[] | undefined;
}

function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");
}

function invalid(field: string, msg: string): ApiError {
  return ApiError.validation([{ loc: ["body", field], msg, type: "value_error" }]);
}

/** What the checks before the transaction settle. */
interface Planned {
  actorId: number;
  role: NonNullable<CreateServiceAccountInput["role"]>;
  roleScopes: string[];
  scopes: string[];
  email: string;
  expiresAt: Date | null;
}

export const createServiceAccount = defineVerb<CreateServiceAccountInput, { user: PublicUser; token: IssuedToken }, Planned>(
  {
    scope: "admin:*",
    prepare: async (ctx, input) => {
      const actor = requireGrantor(ctx);
      const role = input.role ?? "viewer";
      const roleScopes = [...ROLE_SCOPES[role]];
      // An admin service account only from a caller whose own credential covers everything admin has.
      requireWithinGrant(actor, roleScopes);
      const scopes = scopesToGrant(actor, input.scopes, roleScopes);
      if (!scopesWithinRole(scopes, roleScopes))
        throw invalid("scopes", `The token's scopes must be within the service account's role (${role}: ${roleScopes.join(", ")}).`);
      const slug = slugify(input.name);
      if (!slug) throw invalid("name", "The name needs at least one letter or digit.");
      return {
        actorId: actor.userId,
        role,
        roleScopes,
        scopes,
        email: `${slug}@${SERVICE_ACCOUNT_DOMAIN}`,
        expiresAt: resolveExpiry(input, ctx.clock.now()),
      };
    },
  },
  async (s, input, { actorId, role, roleScopes, scopes, email, expiresAt: asked }) => {
    const parent = await lockCallerToken(s);
    const expiresAt = childExpiry(parent, asked, input);
    const created = await s.tx
      .insert(users)
      .values({
        email,
        display_name: input.name,
        role,
        is_service_account: true,
        password_hash: null,
        created_at: s.now,
        updated_at: s.now,
      })
      .returning()
      .catch((e: unknown) => {
        if (isUniqueViolation(e, "users_email_lower_idx"))
          throw ApiError.conflict(`A user with the email ${email} already exists; choose another service-account name.`);
        throw e;
      });
    const user = created[0]!;
    s.audit({
      action: "service_account.created",
      category: "security",
      entity_type: "user",
      entity_id: user.id,
      diff: { after: { email, role, is_service_account: true } },
    });
    const token = await insertToken(s, {
      userId: user.id,
      label: input.name,
      scopes,
      expiresAt,
      createdBy: actorId,
      parentTokenId: parent?.id ?? null,
    });
    return { user: publicUser(user, roleScopes), token };
  },
);
