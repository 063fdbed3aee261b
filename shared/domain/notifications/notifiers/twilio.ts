// Twilio Programmable Messaging: an SMS by POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form
// encoded, HTTP Basic with the Account SID and its auth token (the secret). An SMS has no priority or
// resolve: the text starts with what the message is ("[critical]", "[resolved]").
import { basicAuth } from "../basic-auth.ts";
import { bodyWithLink, statusTag } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier } from "./notifier.ts";

/** The documented maximum of Body. */
const SMS_LIMIT = 1600;

export const twilio = {
  type: "twilio",
  label: "Twilio SMS",
  transport: "http",
  fields: {
    account_sid: { kind: "string", required: true, hint: "The Account SID (AC…) from the Twilio console." },
    auth_token: { kind: "string", secret: true, required: true, hint: "The account's Auth Token." },
    from: {
      kind: "string",
      required: true,
      hint: "The sending Twilio number in E.164 (+15017122661), or a Messaging Service SID (MG…).",
    },
    to: { kind: "string", required: true, hint: "The phone number to text, in E.164 (+15558675310)." },
    base_url: { kind: "url", hint: "Default https://api.twilio.com." },
  },
  render: ({ config, secrets, message: m }) => {
    const sid = String(config.account_sid);
    const from = String(config.from);
    const head = clip(`${statusTag(m)} ${m.title}`, 200);
    const form = new URLSearchParams({
      To: String(config.to),
      [from.startsWith("MG") ? "MessagingServiceSid" : "From"]: from,
      Body: `${head}\n${bodyWithLink(m, SMS_LIMIT - head.length - 1)}`,
    });
    return {
      url: `${baseUrl(config, "https://api.twilio.com")}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`,
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basicAuth(sid, secrets.auth_token!) },
      body: form.toString(),
    };
  },
} satisfies HttpNotifier<"twilio">;
