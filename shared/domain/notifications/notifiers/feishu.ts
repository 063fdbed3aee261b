// Feishu's (and Lark's) custom bot (open.feishu.cn/document/client-docs/bot-v3/add-custom-bot): POST the
// bot's webhook (`/open-apis/bot/v2/hook/<token>`: the token is the key, so it is secret) with an
// interactive card, or plain text. With "signature verification" on, the body carries `timestamp` (s)
// and `sign` = base64 HMAC-SHA256 keyed by "timestamp\nsecret" over nothing. Feishu answers 200 with
// `{code, msg}`: only code 0 is sent.
import { headline } from "../message-text.ts";
import { hmacSha256Base64 } from "../signing.ts";
import { clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

/** Where a bot given by its token lives: Feishu (China) or Lark (international). */
const REGION_BASE = { feishu: "https://open.feishu.cn", lark: "https://open.larksuite.com" } as const;
/** Card header colours (Feishu's templates). */
const TEMPLATE = { critical: "red", warning: "orange", info: "blue" } as const;
/** The whole request may be 20 KB: the text stays well under it even in 3-byte characters. */
const TEXT_LIMIT = 3900;

export const feishu = {
  type: "feishu",
  label: "Feishu / Lark",
  transport: "http",
  fields: {
    webhook_url: {
      kind: "url",
      secret: true,
      requiredUnless: "token",
      missing: "webhook_url (or token) is required for a feishu sink.",
      hint: "The bot's webhook address: https://open.feishu.cn/open-apis/bot/v2/hook/… (or open.larksuite.com for Lark).",
    },
    token: { kind: "string", secret: true, hint: "Instead of the webhook address: only its last part, after /hook/." },
    region: { kind: "choice", options: ["feishu", "lark"], hint: "With a token: feishu (open.feishu.cn) or lark (open.larksuite.com)." },
    signing_secret: { kind: "string", secret: true, hint: 'The secret shown when "Set signature verification" is on.' },
    format: { kind: "choice", options: ["card", "text"], hint: "card (default): a coloured card with a link button; text: plain text." },
  },
  async render({ config, secrets, message: m, nowSecs }) {
    const region = config.region === "lark" ? "lark" : "feishu";
    const url = secrets.webhook_url ?? `${REGION_BASE[region]}/open-apis/bot/v2/hook/${encodeURIComponent(secrets.token ?? "")}`;
    const signed = secrets.signing_secret
      ? { timestamp: String(nowSecs), sign: await hmacSha256Base64(`${nowSecs}\n${secrets.signing_secret}`, "") }
      : {};
    const body = clip(m.body, TEXT_LIMIT);
    const message =
      config.format === "text"
        ? { msg_type: "text", content: { text: `${headline(m)}\n${body}${m.links.alert ? `\n${m.links.alert}` : ""}` } }
        : {
            msg_type: "interactive",
            card: {
              config: { wide_screen_mode: true },
              header: {
                title: { tag: "plain_text", content: clip(headline(m), 200) },
                template: m.status === "resolved" ? "green" : TEMPLATE[m.severity],
              },
              elements: [
                { tag: "div", text: { tag: "plain_text", content: body } },
                ...(m.links.alert
                  ? [
                      {
                        tag: "action",
                        actions: [
                          { tag: "button", text: { tag: "plain_text", content: "Open the alert" }, type: "primary", url: m.links.alert },
                        ],
                      },
                    ]
                  : []),
              ],
            },
          };
    return { ...jsonRequest(url, { ...signed, ...message }), expectJson: { field: "code", equals: 0 } };
  },
} satisfies HttpNotifier<"feishu">;
