// The first-run setup token (spec 5.4.3): SVC_SETUP_TOKEN when configured; otherwise the long-lived
// process generates one at start while no administrator exists, stores only its salted HMAC and logs
// the plaintext once.
import { eq } from "drizzle-orm";
import { generateApiToken, hashApiToken, verifyApiToken } from "../auth/api-token.ts";
import { timingSafeEqualString } from "../auth/constant-time.ts";
import type { Random } from "../clock.ts";
import type { Db } from "../db/database.ts";
import { serverSecrets } from "../db/schema/index.ts";

const SETUP_TOKEN = "setup_token_hash";

/** Makes a fresh setup token and returns its plaintext (to be logged once). */
export async function generateSetupToken(db: Db, random: Random): Promise<string> {
  const { token } = generateApiToken("setup", random);
  const value = hashApiToken(token);
  await db.insert(serverSecrets).values({ name: SETUP_TOKEN, value }).onConflictDoUpdate({ target: serverSecrets.name, set: { value } });
  return token;
}

export async function setupTokenMatches(db: Db, configured: string | undefined, presented: string): Promise<boolean> {
  if (configured) return timingSafeEqualString(presented, configured);
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, SETUP_TOKEN));
  return verifyApiToken(presented, row?.value);
}

export async function forgetSetupToken(db: Db): Promise<void> {
  await db.delete(serverSecrets).where(eq(serverSecrets.name, SETUP_TOKEN));
}
