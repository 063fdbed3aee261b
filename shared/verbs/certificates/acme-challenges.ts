// The ACME state kept in the database (docs/acme.md): http-01 key authorizations in acme_challenges,
// served by the public GET /.well-known/acme-challenge/{token} from any process, and the ACME account
// keys, one per directory URL, sealed by the vault in server_secrets (ACME_ACCOUNT_KEY).
import { and, eq, gt, lte } from "drizzle-orm";
import { acmeChallenges, serverSecrets } from "../../db/schema/index.ts";
import { ACME_ACCOUNT_KEY, acmeAccountKeyName, openSecret, sealSecret } from "../vault/secret-columns.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { vaultOf } from "../verb-context.ts";

/** Issuance is the system's work (the certificates verbs already checked the caller's scope); no invented scope name. */
const ACME_SCOPE = "admin:*";

/** RFC 8555 8.3: a token is base64url; we also bound its length. */
export const ACME_TOKEN = /^[A-Za-z0-9_-]{16,256}$/;

/** Records one http-01 answer until `expires_at`, dropping any expired rows on the way. */
export const putAcmeChallenge = defineVerb<{ token: string; keyAuthorization: string; ttlMs: number }, void>(
  { scope: ACME_SCOPE },
  async (s, input) => {
    const now = s.ctx.clock.now();
    await s.tx.delete(acmeChallenges).where(lte(acmeChallenges.expires_at, now));
    const row = { token: input.token, key_authorization: input.keyAuthorization, expires_at: new Date(now.getTime() + input.ttlMs) };
    await s.tx
      .insert(acmeChallenges)
      .values(row)
      .onConflictDoUpdate({ target: acmeChallenges.token, set: { key_authorization: row.key_authorization, expires_at: row.expires_at } });
  },
);

export const removeAcmeChallenge = defineVerb<{ token: string }, void>({ scope: ACME_SCOPE }, async (s, { token }) => {
  await s.tx.delete(acmeChallenges).where(eq(acmeChallenges.token, token));
});

/** The key authorization of a live token, or null (unknown, expired, or not a token at all). */
export const readAcmeChallenge = defineRead<{ token: string }, string | null>({ scope: "public" }, async (ctx, { token }) => {
  if (!ACME_TOKEN.test(token)) return null;
  const [row] = await ctx.db
    .select({ key_authorization: acmeChallenges.key_authorization })
    .from(acmeChallenges)
    .where(and(eq(acmeChallenges.token, token), gt(acmeChallenges.expires_at, ctx.clock.now())));
  return row?.key_authorization ?? null;
});

/**
 * The account key for a directory, created by `create` (an ECDSA P-256 PEM) on first use. Concurrent
 * first uses race on the primary key; the loser reads the winner's key, so there is one account.
 */
export const acmeAccountKey = defineVerb<{ directoryUrl: string; create: () => Promise<string> }, string>(
  { scope: ACME_SCOPE },
  async (s, { directoryUrl, create }) => {
    const vault = vaultOf(s.ctx);
    const name = acmeAccountKeyName(directoryUrl);
    const read = async () =>
      (await s.tx.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name)))[0]?.value;
    const stored = await read();
    if (stored) return openSecret(vault, ACME_ACCOUNT_KEY, name, stored);
    const pem = await create();
    await s.tx
      .insert(serverSecrets)
      .values({ name, value: await sealSecret(vault, ACME_ACCOUNT_KEY, name, pem) })
      .onConflictDoNothing();
    return openSecret(vault, ACME_ACCOUNT_KEY, name, (await read())!);
  },
);
