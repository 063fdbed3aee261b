// Writes a freshly generated token (a new row, or a rotation of an existing one). The public prefix has a
// unique index: on the rare collision the write is retried once with a new token, inside a savepoint so the
// surrounding transaction survives the failed statement.
import { API_TOKEN_WORD, type GeneratedToken, generateApiToken, hashApiToken } from "../../auth/api-token.ts";
import type { Db } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import type { VerbScope } from "../verb.ts";
import { isUniqueViolation } from "./unique-violation.ts";

const PREFIX_INDEX = "api_tokens_prefix_idx";

export async function withFreshToken<T>(
  s: VerbScope,
  write: (tx: Db, fresh: GeneratedToken & { token_hash: string }) => Promise<T>,
): Promise<{ result: T; token: string }> {
  for (let attempt = 1; ; attempt++) {
    const generated = generateApiToken(API_TOKEN_WORD, s.ctx.random);
    const fresh = { ...generated, token_hash: hashApiToken(generated.token) };
    try {
      const result = await s.savepoint((tx) => write(tx, fresh));
      return { result, token: generated.token };
    } catch (e) {
      if (!isUniqueViolation(e, PREFIX_INDEX)) throw e;
      if (attempt >= 2) throw ApiError.conflict("Could not allocate a unique token prefix; please retry.");
    }
  }
}
