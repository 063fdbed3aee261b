// POST /auth/cli-login/deny (docs/adr/0504): the signed-in user refuses a CLI's browser sign-in; nothing
// is created, the refusal is audited, and the browser goes back to the CLI with error=access_denied
// (RFC 6749, section 4.1.2.1) so it stops waiting at once.
import { defineVerb } from "../verb.ts";
import { answerTo, type CliLoginRequest, listenerOf, requireConsoleUser } from "./request.ts";

export const denyCliLogin = defineVerb<CliLoginRequest, { redirect_to: string }>({ scope: requireConsoleUser }, async (s, input) => {
  const answer = answerTo(input, { error: "access_denied" });
  s.audit({
    action: "cli_login.denied",
    category: "security",
    entity_type: "user",
    entity_id: s.ctx.actor!.userId,
    diff: { client_name: input.client_name, listener: listenerOf(input.redirect_uri) },
  });
  return answer;
});
