// DingTalk's custom robot (open.dingtalk.com, "Custom robot: send group messages"): POST the robot's
// webhook URL (its access_token is the key, so the URL is secret) with a markdown message; with the
// robot's "additional signature" secret (SEC...), `timestamp` (ms) and `sign` are added to the query.
// DingTalk answers 200 with `{errcode, errmsg}`: only errcode 0 is sent.
import { clipBytes, headline, markdownLink } from "../message-text.ts";
import { hmacSha256Base64 } from "../signing.ts";
import { type HttpNotifier, jsonRequest } from "./notifier.ts";

/** DingTalk refuses a message past about 20000 bytes: the markdown text stays well under it. */
const TEXT_BYTES = 15_000;

export const dingtalk = {
  type: "dingtalk",
  label: "DingTalk",
  transport: "http",
  fields: {
    webhook_url: {
      kind: "url",
      secret: true,
      required: true,
      hint: "The robot's Webhook: https://oapi.dingtalk.com/robot/send?access_token=…",
    },
    signing_secret: {
      kind: "string",
      secret: true,
      hint: 'The robot\'s "Additional signature" secret (SEC…); with "Custom keywords" security instead, put a keyword in the alert titles.',
    },
  },
  async render({ secrets, message: m, nowSecs }) {
    let url = secrets.webhook_url!;
    if (secrets.signing_secret) {
      const timestamp = nowSecs * 1000;
      const sign = await hmacSha256Base64(secrets.signing_secret, `${timestamp}\n${secrets.signing_secret}`);
      url += `${url.includes("?") ? "&" : "?"}timestamp=${timestamp}&sign=${encodeURIComponent(sign)}`;
    }
    const title = headline(m);
    return {
      ...jsonRequest(url, {
        msgtype: "markdown",
        markdown: { title: clipBytes(title, 256), text: clipBytes(`### ${title}\n\n${m.body}${markdownLink(m)}`, TEXT_BYTES) },
      }),
      expectJson: { field: "errcode", equals: 0 },
    };
  },
} satisfies HttpNotifier<"dingtalk">;
