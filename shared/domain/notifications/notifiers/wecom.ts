// WeCom's (WeChat Work) group robot (developer.work.weixin.qq.com/document/path/91770): POST the robot's
// webhook URL (its `key` is the credential, so the URL is secret) with a markdown message of at most
// 4096 UTF-8 bytes. WeCom answers 200 with `{errcode, errmsg}`: only errcode 0 is sent.
import { clipBytes, headline, markdownLink } from "../message-text.ts";
import { type HttpNotifier, jsonRequest } from "./notifier.ts";

/** WeCom markdown's own three colours: warning (orange-red), comment (grey), info (green). */
const COLOR = { critical: "warning", warning: "comment", info: "info" } as const;

export const wecom = {
  type: "wecom",
  label: "WeCom (WeChat Work)",
  transport: "http",
  fields: {
    webhook_url: {
      kind: "url",
      secret: true,
      required: true,
      hint: "The group robot's Webhook address: https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…",
    },
  },
  render: ({ secrets, message: m }) => {
    const color = m.status === "resolved" ? "info" : COLOR[m.severity];
    const content = `### <font color="${color}">${headline(m)}</font>\n${m.body}${markdownLink(m)}`;
    return {
      ...jsonRequest(secrets.webhook_url!, { msgtype: "markdown", markdown: { content: clipBytes(content, 4096) } }),
      expectJson: { field: "errcode", equals: 0 },
    };
  },
} satisfies HttpNotifier<"wecom">;
