// POST /admin/invites: a single-use, expiring invitation for one e-mail address and role. The token is
// shown once (with the link to send); only its prefix and a salted HMAC are stored.
import { generateApiToken, hashApiToken, INVITE_TOKEN_WORD } from "../../auth/api-token.ts";
import { invites } from "../../db/schema/index.ts";
import { readSetting } from "../../settings/read.ts";
import { assertRoleExists } from "../admin-users/roles.ts";
import { assertEmailFree } from "../admin-users/user-rows.ts";
import { defineVerb } from "../verb.ts";
import { assertNoOtherLiveInvite, inviteUrl, type PublicInvite, publicInvite } from "./invite-rows.ts";

export interface CreateInviteInput {
  email: string;
  role: string;
  expires_in_hours?: number | undefined;
}

export type CreatedInvite = PublicInvite & { token: string; invite_url: string };

export const createInvite = defineVerb<CreateInviteInput, CreatedInvite>({ scope: "admin:*" }, async (s, input) => {
  await assertRoleExists(s.tx, input.role);
  await assertNoOtherLiveInvite(s.tx, input.email, s.now);
  await assertEmailFree(s.tx, input.email);
  const hours = input.expires_in_hours ?? (await readSetting(s.tx, "invite_expiry_hours"));
  const { token, prefix } = generateApiToken(INVITE_TOKEN_WORD, s.ctx.random);
  const [row] = await s.tx
    .insert(invites)
    .values({
      email: input.email,
      role: input.role,
      prefix,
      token_hash: hashApiToken(token),
      expires_at: new Date(s.now.getTime() + hours * 3_600_000),
      created_by: s.ctx.actor?.userId ?? null,
      created_at: s.now,
    })
    .returning();
  const shown = publicInvite(row!, s.now);
  s.audit({
    action: "invite.created",
    category: "security",
    entity_type: "invite",
    entity_id: row!.id,
    diff: { after: { email: shown.email, role: shown.role, expires_at: shown.expires_at } },
  });
  return { ...shown, token, invite_url: inviteUrl(token, await readSetting(s.tx, "public_url")) };
});
