// What one notification provider is (notifiers/README.md): its `provider_config` keys, secret ones
// marked (sealed by the vault, answered masked with a `<key>_set` flag), and how an alert becomes what it
// sends. Runtime-neutral: the API validates sink configs with the same fields on the edge; the sidecar
// sends what `render` answers (sidecar/notifications/send-http.ts for every "http" provider).
import type { AlertStatus } from "../alert-status.ts";

/**
 * How a key is checked (../notifier-config.ts) and shown in the sink form: `integer` within `min`..`max`,
 * `choice` one of `options`, `text` a string the form shows as several lines (a template, a message).
 */
export type FieldKind = "url" | "host" | "string" | "text" | "port" | "bool" | "priority" | "integer" | "choice";

export interface NotifierField {
  kind: FieldKind;
  /** integer: the bounds (inclusive). */
  min?: number;
  max?: number;
  /** choice: the values accepted. */
  options?: readonly string[];
  /** A line under the input in the sink form: what the value is and where the service shows it. */
  hint?: string;
  secret?: boolean;
  required?: boolean;
  /** Required unless the sink has this other key (a webhook URL or its token alone). */
  requiredUnless?: string;
  /** An older key accepted for this one on input (renamed to it before validation). */
  alias?: string;
  /** The 422 message when a required key is missing (default: "<key> is required for a <type> sink."). */
  missing?: string;
  /** A further check once the kind's passed (a template that must parse): what is wrong, or null. */
  check?: (value: unknown) => string | null;
}

export interface AlertMessage {
  /** Stable per delivery: the webhook-id, so a receiver can drop a replayed duplicate. */
  id: string;
  kind: string;
  /** firing (a problem began), resolved (it ended) or event (neither): ../alert-status.ts. */
  status: AlertStatus;
  /**
   * The same on a firing alert and on the recovery that ends it (the incident's key): what PagerDuty calls
   * `dedup_key` and Opsgenie `alias`, so a recovery resolves the incident its alert opened.
   */
  dedup_key: string;
  /** Links into the console when the server's PUBLIC_URL is set: the alert, and a signed acknowledge link. */
  links: { alert?: string; acknowledge?: string };
  severity: "info" | "warning" | "critical";
  title: string;
  body: string;
  occurred_at: string;
  /** The monitor the alert is about, when it is one (a template field: ../templates.ts). */
  monitor?: { id: number; name: string; check_type: string; host: string } | null;
  data: Record<string, unknown>;
  /**
   * An e-mail written in full by its sender, which the email provider sends as it is (a status page's
   * message to a subscriber, docs/adr/0458-status-page-subscribers.md) instead of its alert layout.
   */
  mail?: { subject: string; text: string; html?: string | undefined; headers?: Record<string, string> | undefined } | undefined;
  /**
   * A webhook body written in full by its sender, which the webhook provider sends as it is (signed like
   * any other) instead of its alert layout: an inventory change of an event rule (docs/adr/0488).
   */
  webhookBody?: Record<string, unknown> | undefined;
}

/** A rendered HTTP notification (the sender adds its user-agent). */
export interface HttpRequestSpec {
  /** POST unless the provider's API says otherwise. */
  method?: "POST" | "PUT" | "PATCH" | "GET" | "DELETE";
  url: string;
  headers: Record<string, string>;
  body: string;
  /**
   * The statuses that mean the service took it, instead of any 2xx: LINE's 409 (this retry key was already
   * accepted, so the message was sent), Apprise API's 200 only (its 204 says no configuration matched).
   */
  deliveredStatuses?: readonly number[];
  /**
   * Services that answer a refusal with 200 and a code in the body (telegram's `ok`, DingTalk's and WeCom's
   * `errcode`, Feishu's `code`): the JSON body's top-level `field` must equal `equals` to count as delivered.
   */
  expectJson?: { field: string; equals: string | number | boolean };
}

export interface EmailSpec {
  to: string;
  from: string;
  subject: string;
  text: string;
  html?: string | undefined;
  /** Extra header lines (List-Unsubscribe and List-Unsubscribe-Post of a subscriber's message). */
  headers?: Record<string, string> | undefined;
}

/** What a render is given: the sink's plain keys, its opened secrets, the alert and the send time. */
export interface RenderInput {
  config: Record<string, unknown>;
  secrets: Record<string, string>;
  message: AlertMessage;
  /** Unix seconds of this attempt (a webhook signature covers it). */
  nowSecs: number;
}

interface NotifierBase<T extends string> {
  type: T;
  /** The service's own name, as the sink form lists it ("PagerDuty"). */
  label?: string;
  fields: Record<string, NotifierField>;
}

/** "Render a request, POST it": sent by the one generic HTTP sender, no sidecar code of its own. */
export interface HttpNotifier<T extends string = string> extends NotifierBase<T> {
  transport: "http";
  render(input: RenderInput): HttpRequestSpec | Promise<HttpRequestSpec>;
}

/** Mail through the sink's own SMTP server (sidecar/notifications/send-email.ts). */
export interface SmtpNotifier<T extends string = string> extends NotifierBase<T> {
  transport: "smtp";
  render(input: RenderInput): EmailSpec;
}

export type Notifier<T extends string = string> = HttpNotifier<T> | SmtpNotifier<T>;

// Helpers the providers share.
/** The fields of a chat service's incoming webhook: its URL carries the key, so it is a secret. */
export const SECRET_WEBHOOK_URL = { webhook_url: { kind: "url", secret: true, required: true } } as const satisfies Record<
  string,
  NotifierField
>;
export const SEVERITY_COLOR = { critical: "#FF0000", warning: "#FFA500", info: "#36a64f" } as const;
const TEXT_LIMIT = 3900;
export const trimSlash = (u: string) => u.replace(/\/+$/, "");
/** The sink's `base_url` (or the provider's public service), without a trailing slash. */
export const baseUrl = (config: Record<string, unknown>, fallback = "") => trimSlash(String(config.base_url ?? fallback));
export const clip = (s: string, n = TEXT_LIMIT) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
export const jsonRequest = (url: string, value: unknown, headers: Record<string, string> = {}): HttpRequestSpec => ({
  url,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(value),
});
