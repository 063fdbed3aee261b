// The notification providers, one file each (README.md: adding one is its file + one line here).
// Everything else — the accepted `provider_type`s, the sink form, config validation, secret sealing and
// masking, the sender — reads this list.
import { alertmanager } from "./alertmanager.ts";
import { TEMPLATE_KEYS } from "../templates.ts";
import { discord } from "./discord.ts";
import { email } from "./email.ts";
import { google_chat } from "./google_chat.ts";
import { gotify } from "./gotify.ts";
import { apprise } from "./apprise.ts";
import { bark } from "./bark.ts";
import { dingtalk } from "./dingtalk.ts";
import { feishu } from "./feishu.ts";
import { line } from "./line.ts";
import { http_request } from "./http_request.ts";
import { ntfy } from "./ntfy.ts";
import type { Notifier, NotifierField } from "./notifier.ts";
import { opsgenie } from "./opsgenie.ts";
import { pagerduty } from "./pagerduty.ts";
import { pushbullet } from "./pushbullet.ts";
import { pushover } from "./pushover.ts";
import { signl4 } from "./signl4.ts";
import { home_assistant } from "./home_assistant.ts";
import { matrix } from "./matrix.ts";
import { mattermost } from "./mattermost.ts";
import { rocket_chat } from "./rocket_chat.ts";
import { signal } from "./signal.ts";
import { slack } from "./slack.ts";
import { splunk_oncall } from "./splunk_oncall.ts";
import { teams } from "./teams.ts";
import { telegram } from "./telegram.ts";
import { twilio } from "./twilio.ts";
import { webex } from "./webex.ts";
import { webhook } from "./webhook.ts";
import { zulip } from "./zulip.ts";
import { wecom } from "./wecom.ts";

export const NOTIFIERS = [
  webhook,
  slack,
  discord,
  teams,
  ntfy,
  gotify,
  telegram,
  email,
  pagerduty,
  opsgenie,
  splunk_oncall,
  signl4,
  pushover,
  twilio,
  pushbullet,
  alertmanager,
  matrix,
  mattermost,
  rocket_chat,
  google_chat,
  zulip,
  webex,
  home_assistant,
  signal,
  bark,
  apprise,
  feishu,
  dingtalk,
  wecom,
  line,
  http_request,
] as const satisfies readonly Notifier[];

export type NotifierType = (typeof NOTIFIERS)[number]["type"];

export const NOTIFIER_TYPES = NOTIFIERS.map((p) => p.type) as [NotifierType, ...NotifierType[]];

const BY_TYPE = new Map<string, Notifier>(NOTIFIERS.map((p) => [p.type, p]));

export const isNotifierType = (t: string): t is NotifierType => BY_TYPE.has(t);

export const notifierOf = (type: NotifierType): Notifier => BY_TYPE.get(type)!;

/**
 * Each type's config keys (the sink form and validation read them): its own, then the message templates
 * every sink takes (../templates.ts), written once here rather than in each provider.
 */
export const NOTIFIER_FIELDS = Object.fromEntries(
  NOTIFIERS.map((p): [string, Record<string, NotifierField>] => [p.type, { ...p.fields, ...TEMPLATE_KEYS }]),
) as Record<NotifierType, Record<string, NotifierField>>;

export const secretKeys = (type: NotifierType): string[] =>
  Object.entries(NOTIFIER_FIELDS[type])
    .filter(([, f]) => f.secret)
    .map(([k]) => k);
