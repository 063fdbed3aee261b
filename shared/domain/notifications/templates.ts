// Message templates (docs/adr/0446-message-templates.md): a sink may write its own title and body over
// the alert's fields, in mustache (logic-less: names, sections over lists, nothing that runs code). The
// fields are a fixed catalogue (FIELDS below, docs/notifications.md) so a name outside it — a typo — is a
// 422 at save time instead of an empty spot in a 3 a.m. page. Runtime-neutral: the API validates on the
// edge, the delivery worker renders, the console shows the same catalogue.
import Mustache from "mustache";
import type { AlertMessage, NotifierField } from "./notifiers/notifier.ts";

/** A field of the catalogue: its description, and for an object or a list its own fields. */
export interface TemplateField {
  doc: string;
  /** An object (`monitor.name`) or, with `list`, each item of a list (`{{#affected}}{{title}}{{/affected}}`). */
  fields?: Record<string, TemplateField>;
  list?: boolean;
}

const f = (doc: string, fields?: Record<string, TemplateField>, list?: boolean): TemplateField => ({
  doc,
  ...(fields ? { fields } : {}),
  ...(list ? { list } : {}),
});

/** What a template may name. The view (`templateView`) has exactly these keys. */
export const TEMPLATE_FIELDS: Record<string, TemplateField> = {
  title: f('The title the server wrote ("web-1 down: 2 monitors affected").'),
  body: f("The body the server wrote, the folded dependents listed."),
  kind: f("What happened: monitor.down, monitor.up, metric.firing, certificate.expiring, …"),
  status: f("firing (a problem began), resolved (it ended) or event (neither)."),
  severity: f("info, warning or critical."),
  occurred_at: f("When it happened, ISO 8601 UTC."),
  dedup_key: f("The incident's key: the same on the firing alert and on its recovery."),
  message: f('The check\'s own message ("connection refused"); empty for an alert not from a check.'),
  monitor: f("The monitor the alert is about; empty when it is not about one.", {
    id: f("Its id."),
    name: f("Its name."),
    check_type: f("http, tcp, ping, dns, push, group, …"),
    host: f("What it checks (empty for push and group monitors)."),
  }),
  target: f("The inventory item the alert is about; empty when none.", {
    type: f("node, service, …"),
    id: f("Its id."),
  }),
  affected: f(
    "The monitors folded into this alert (down because of it), each with:",
    {
      monitor_id: f("The monitor's id."),
      title: f("Its own alert's title."),
      target_type: f("Its inventory item's type."),
      target_id: f("Its inventory item's id."),
    },
    true,
  ),
  links: f("Links into the console, when the server's PUBLIC_URL is set.", {
    alert: f("The alert."),
    acknowledge: f("A signed link that acknowledges it."),
  }),
};

export type TemplateView = {
  title: string;
  body: string;
  kind: string;
  status: string;
  severity: string;
  occurred_at: string;
  dedup_key: string;
  message: string;
  monitor: { id: number; name: string; check_type: string; host: string } | null;
  target: { type: string; id: number } | null;
  affected: { monitor_id: number | null; title: string; target_type: string | null; target_id: number | null }[];
  links: { alert: string; acknowledge: string };
};

const MAX_TEMPLATE = 4000;
/** A rendered title or body is clipped like the server's own (enqueue-alert.ts). */
const MAX_TITLE = 500;
const MAX_BODY = 4000;

// One writer of our own without a cache: mustache caches every template it parses, forever, and the
// preview route parses whatever it is sent.
const writer = Object.assign(new Mustache.Writer(), { templateCache: undefined });

type Token = [string, string, number, number, Token[]?, ...unknown[]];

/** The field a dotted name reaches in `scope`, or undefined. */
function resolve(name: string, scope: Record<string, TemplateField>): TemplateField | undefined {
  let fields: Record<string, TemplateField> | undefined = scope;
  let found: TemplateField | undefined;
  for (const part of name.split(".")) {
    found = fields && Object.hasOwn(fields, part) ? fields[part] : undefined;
    if (!found) return undefined;
    fields = found.fields;
  }
  return found;
}

/**
 * Why `source` is not a template over the catalogue (it does not parse, uses a partial, or names a field
 * the catalogue lacks), or null. A name resolves as mustache looks it up: in the innermost section's item
 * first (`{{#affected}}{{title}}{{/affected}}` is the dependent's title), then outwards.
 */
export function templateProblem(source: string, catalogue: Record<string, TemplateField> = TEMPLATE_FIELDS): string | null {
  if (source.length > MAX_TEMPLATE) return `is longer than ${MAX_TEMPLATE} characters`;
  let tokens: Token[];
  try {
    tokens = writer.parse(source) as Token[];
  } catch (e) {
    return `does not parse: ${(e as Error).message}`;
  }
  // `within`: the sections around a name, for the message ("hostname (in {{#affected}})").
  const walk = (list: Token[], scopes: Record<string, TemplateField>[], within: string): string | null => {
    for (const [type, name, , , children] of list) {
      if (type === "text" || type === "!" || type === "=") continue;
      if (type === ">") return `uses a partial ({{> ${name}}}): none are defined`;
      if (name === ".") continue;
      let field: TemplateField | undefined;
      for (let depth = scopes.length - 1; depth >= 0 && !field; depth--) field = resolve(name, scopes[depth]!);
      if (!field) return `names an unknown field: ${name}${within}`;
      if (type !== "#" && type !== "^") continue;
      // A section over an object or a list's items looks names up in it first; an inverted one renders
      // only when the value is empty, so nothing new is in reach.
      const inner = type === "#" && field.fields ? [...scopes, field.fields] : scopes;
      const problem = walk(children ?? [], inner, ` (in {{${type}${name}}})`);
      if (problem) return problem;
    }
    return null;
  };
  return walk(tokens, [catalogue], "");
}

/** The NotifierField check of a template key (notifier-config.ts runs it after the kind's own check). */
export const checkTemplate = (value: unknown): string | null => templateProblem(String(value));

/**
 * The keys every sink takes whatever its provider (notifiers/index.ts adds them to each provider's
 * fields): the title and the body the provider sends, written over the catalogue.
 */
export const TEMPLATE_KEYS = {
  title_template: {
    kind: "text",
    check: checkTemplate,
    hint: "Optional: the title, as a mustache template over the alert's fields, e.g. {{monitor.name}} is {{status}}.",
  },
  body_template: {
    kind: "text",
    check: checkTemplate,
    hint: "Optional: the body, e.g. {{message}}{{#affected}} - {{title}}{{/affected}}. Fields: docs/notifications.md.",
  },
} as const satisfies Record<string, NotifierField>;

/**
 * Renders a checked template. `escapeValue` treats each value: none by default (a chat message is not HTML:
 * mustache's HTML escaping would show `&amp;` and `&#x2F;` in Slack), JSON string escaping for a JSON body.
 */
export function renderTemplate(source: string, view: TemplateView, escapeValue: (value: string) => string = (s) => s): string {
  return writer.render(source, view, undefined, { escape: (v: unknown) => escapeValue(String(v)) });
}

const str = (v: unknown): string => (v == null ? "" : String(v));
const num = (v: unknown): number | null => (typeof v === "number" ? v : v == null || v === "" ? null : Number(v));

/** The template fields of an alert message (delivery-work.ts fills `monitor` and `data`). */
export function templateView(m: AlertMessage): TemplateView {
  const detail = (m.data.detail ?? {}) as Record<string, unknown>;
  const affected = Array.isArray(detail.affected) ? (detail.affected as Record<string, unknown>[]) : [];
  const targetId = num(m.data.target_id);
  return {
    title: m.title,
    body: m.body,
    kind: m.kind,
    status: m.status,
    severity: m.severity,
    occurred_at: m.occurred_at,
    dedup_key: m.dedup_key,
    message: str(detail.msg),
    monitor: m.monitor ?? null,
    target: m.data.target_type && targetId != null ? { type: str(m.data.target_type), id: targetId } : null,
    affected: affected.map((a) => ({
      monitor_id: num(a.monitor_id),
      title: str(a.title),
      target_type: a.target_type == null ? null : str(a.target_type),
      target_id: num(a.target_id),
    })),
    links: { alert: m.links.alert ?? "", acknowledge: m.links.acknowledge ?? "" },
  };
}

const clipTo = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The message with the sink's title and body templates applied. A template that renders blank (a section
 * over a monitor an alert does not have) or throws keeps the server's text: a page must never go out empty.
 */
export function applyTemplates(config: Record<string, unknown>, m: AlertMessage): AlertMessage {
  const view = templateView(m);
  const one = (key: "title_template" | "body_template", fallback: string, max: number): string => {
    const source = config[key];
    if (typeof source !== "string" || source === "") return fallback;
    try {
      const out = renderTemplate(source, view).trim();
      return out === "" ? fallback : clipTo(out, max);
    } catch {
      return fallback;
    }
  };
  return { ...m, title: one("title_template", m.title, MAX_TITLE), body: one("body_template", withAckLine(m), MAX_BODY) };
}

/**
 * The server's own body ends with the acknowledge link when the message has one, so every channel that
 * shows text can acknowledge from the message itself (docs/adr/0447); a body template places
 * `{{links.acknowledge}}` where it likes instead.
 */
const withAckLine = (m: AlertMessage): string => (m.links.acknowledge ? `${m.body}\n\nAcknowledge: ${m.links.acknowledge}` : m.body);

/**
 * The sample alert the preview renders (docs/notifications.md): a down HTTP monitor with two dependents
 * folded into it, links set.
 */
export const SAMPLE_ALERT: AlertMessage = {
  id: "alert_1042_sink_3",
  kind: "monitor.down",
  status: "firing",
  dedup_key: "ctl-incident-1042",
  links: { alert: "https://ops.example.com/alerts/1042", acknowledge: "https://ops.example.com/ack/1042?sig=sample" },
  severity: "critical",
  title: "core-switch down: 2 monitors affected",
  body: 'core-switch (ping 10.0.0.2) is down: 100% packet loss\n\nAlso down because of it (2):\n- web-1 down\n- "db-1" down',
  occurred_at: "2026-11-02T10:00:00.000Z",
  monitor: { id: 12, name: "core-switch", check_type: "ping", host: "10.0.0.2" },
  data: {
    alert_id: 1042,
    monitor_id: 12,
    target_type: "node",
    target_id: 4,
    detail: {
      msg: "100% packet loss",
      affected: [
        { monitor_id: 13, title: "web-1 down", target_type: "node", target_id: 5 },
        { monitor_id: 14, title: '"db-1" down', target_type: "node", target_id: 6 },
      ],
    },
  },
};
