// POST /auth/cli-login/approve (docs/adr/0504): the signed-in user approves a CLI's browser sign-in. A
// one-time code is stored hashed with what it will become (the token's label, scopes and expiry, chosen
// under the rules of POST /auth/api-token), bound to the PKCE challenge and the loopback redirect URI,
// valid for a minute; the console then sends the browser to that URI with the code and the state.
import { lt } from "drizzle-orm";
import { bytesToBase64Url } from "../../auth/encoding.ts";
import { sha256Hex } from "../../auth/sha256.ts";
import { cliLoginCodes } from "../../db/schema/index.ts";
import { defineVerb } from "../verb.ts";
import { type ExpiryInput, resolveExpiry } from "../tokens/expiry.ts";
import { scopesToGrant } from "../tokens/grant.ts";
import { answerTo, type CliLoginRequest, checkedRedirect, listenerOf, requireConsoleGrantor } from "./request.ts";

/** How long the code is good for: the browser hands it to a listener on the same machine at once. */
export const CODE_TTL_MS = 60_000;
/** Used and expired codes are kept this long after expiry, so a late replay is still known as one. */
const KEPT_AFTER_EXPIRY_MS = 60 * 60_000;

export interface ApproveInput extends CliLoginRequest, ExpiryInput {
  code_challenge: string;
  label: string;
  scopes?: string[] | undefined;
}

interface Approved {
  userId: number;
  scopes: string[];
  tokenExpiresAt: Date | null;
  redirectUri: string;
}

export const approveCliLogin = defineVerb<ApproveInput, { redirect_to: string }, Approved>(
  {
    scope: requireConsoleGrantor,
    prepare: async (ctx, input) => {
      const actor = requireConsoleGrantor(ctx);
      const redirectUri = checkedRedirect(input);
      return {
        userId: actor.userId,
        scopes: scopesToGrant(actor, input.scopes),
        tokenExpiresAt: resolveExpiry(input, ctx.clock.now()),
        redirectUri,
      };
    },
  },
  async (s, input, approved) => {
    await s.tx.delete(cliLoginCodes).where(lt(cliLoginCodes.expires_at, new Date(s.now.getTime() - KEPT_AFTER_EXPIRY_MS)));
    const code = bytesToBase64Url(s.ctx.random.bytes(32));
    const [row] = await s.tx
      .insert(cliLoginCodes)
      .values({
        code_hash: await sha256Hex(code),
        user_id: approved.userId,
        client_name: input.client_name,
        label: input.label,
        scopes: approved.scopes,
        token_expires_at: approved.tokenExpiresAt,
        code_challenge: input.code_challenge,
        redirect_uri: approved.redirectUri,
        created_at: s.now,
        expires_at: new Date(s.now.getTime() + CODE_TTL_MS),
      })
      .returning({ id: cliLoginCodes.id });
    s.audit({
      action: "cli_login.approved",
      category: "security",
      entity_type: "cli_login",
      entity_id: row!.id,
      diff: {
        client_name: input.client_name,
        label: input.label,
        scopes: approved.scopes,
        token_expires_at: approved.tokenExpiresAt?.toISOString() ?? null,
        listener: listenerOf(approved.redirectUri),
      },
    });
    return answerTo(input, { code });
  },
);
