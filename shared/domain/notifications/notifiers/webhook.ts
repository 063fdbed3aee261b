// Our own webhook: the Standard Webhooks body `{type, timestamp, data}`, signed at send time when the sink
// has a secret (signing.ts; the timestamp is part of the signature).
import { webhookSignatureHeaders } from "../signing.ts";
import { type HttpNotifier, jsonRequest } from "./notifier.ts";

export const webhook = {
  type: "webhook",
  transport: "http",
  // `secret` is generated (whsec_...) when none is given: see create-sink.ts.
  fields: { url: { kind: "url", required: true }, secret: { kind: "string", secret: true } },
  async render({ config, secrets, message: m, nowSecs }) {
    const spec = jsonRequest(
      String(config.url),
      m.webhookBody ?? {
        type: m.kind,
        timestamp: m.occurred_at,
        // links only when the server has a public address (PUBLIC_URL): the console page, the signed acknowledge link.
        data: { id: m.id, severity: m.severity, title: m.title, message: m.body, ...m.data, ...(m.links.alert ? { links: m.links } : {}) },
      },
    );
    if (secrets.secret) Object.assign(spec.headers, await webhookSignatureHeaders(secrets.secret, m.id, nowSecs, spec.body));
    return spec;
  },
} satisfies HttpNotifier<"webhook">;
