// Message templates through the API: the preview route renders against the sample alert; a template that
// names an unknown field or does not parse is a 422 naming it, on the preview and on a sink's save (nothing
// stored); a sink keeps its templates and the http_request provider's keys.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a?.t.close());

const preview = (body: unknown, token = a.admin) => a.req("POST", "notifications/templates/preview", token, body);
const sinkCount = async () => (await a.t.sql`select count(*)::int as n from notification_sinks`)[0]!.n;

describe("POST /notifications/templates/preview", () => {
  it("renders the title and body templates against the sample alert, without HTML escaping", async () => {
    const res = await preview({
      title_template: "{{monitor.name}} is {{status}} ({{severity}})",
      body_template: "{{message}}\n{{#affected}}- {{title}}\n{{/affected}}<{{links.alert}}>",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      title: "core-switch is firing (critical)",
      body: '100% packet loss\n- web-1 down\n- "db-1" down\n<https://ops.example.com/alerts/1042>',
    });
  });

  it("answers the server's own text for a template left out", async () => {
    const body = await (await preview({ title_template: "" })).json();
    expect(body.title).toBe("core-switch down: 2 monitors affected");
    expect(body.body).toContain("Also down because of it (2):");
  });

  it("answers 422 naming the template: an unknown field, a section that does not close, an unknown key", async () => {
    const unknown = await preview({ title_template: "{{monitor.name}}", body_template: "{{#affected}}{{hostname}}{{/affected}}" });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).fields).toEqual({ body_template: "body_template names an unknown field: hostname (in {{#affected}})." });
    const broken = await preview({ title_template: "{{#monitor}}" });
    expect(broken.status).toBe(422);
    expect((await broken.json()).fields.title_template).toMatch(/does not parse: Unclosed section "monitor"/);
    expect((await preview({ subject_template: "x" })).status).toBe(422);
  });

  it("is for those who manage sinks", async () => {
    expect((await preview({ title_template: "{{title}}" }, a.editor)).status).toBe(403);
  });
});

describe("sinks with templates", () => {
  it("refuses a template naming an unknown field on create and on change, storing nothing", async () => {
    const before = await sinkCount();
    const bad = await a.req("POST", "notifications/sinks", a.admin, {
      name: "tpl",
      provider_type: "slack",
      provider_config: { webhook_url: "https://hooks.slack.com/services/T/B/X", body_template: "{{message}} on {{monitor.hostname}}" },
    });
    expect(bad.status).toBe(422);
    const error = await bad.json();
    expect(error.fields).toEqual({ "provider_config.body_template": "body_template names an unknown field: monitor.hostname." });
    expect(error.detail[0].loc).toEqual(["body", "provider_config", "body_template"]);
    expect(await sinkCount()).toBe(before);

    const created = await a.req("POST", "notifications/sinks", a.admin, {
      name: "tpl",
      provider_type: "slack",
      provider_config: { webhook_url: "https://hooks.slack.com/services/T/B/X", title_template: "{{monitor.name}} {{status}}" },
    });
    expect(created.status).toBe(201);
    const sink = await created.json();
    expect(sink.provider_config.title_template).toBe("{{monitor.name}} {{status}}");
    const patch = await a.req("PATCH", `notifications/sinks/${sink.id}`, a.admin, { provider_config: { title_template: "{{#affected}}" } });
    expect(patch.status).toBe(422);
    expect((await patch.json()).fields["provider_config.title_template"]).toMatch(/does not parse/);
    const [row] = await a.t.sql`select provider_config from notification_sinks where id = ${sink.id}`;
    expect(row!.provider_config.title_template).toBe("{{monitor.name}} {{status}}");
  });

  it("keeps an http_request sink's header lines sealed and answers them masked", async () => {
    const res = await a.req("POST", "notifications/sinks", a.admin, {
      name: "generic",
      provider_type: "http_request",
      provider_config: {
        method: "PUT",
        url: "http://127.0.0.1:9/hook",
        headers: "Authorization: Bearer very-secret",
        request_body: '{"text": "{{title}}"}',
      },
    });
    expect(res.status).toBe(201);
    const sink = await res.json();
    expect(sink.provider_config).toMatchObject({ method: "PUT", headers: "•••", headers_set: true, request_body: '{"text": "{{title}}"}' });
    expect(JSON.stringify(sink)).not.toContain("very-secret");
    const [row] = await a.t.sql`select provider_config, secrets from notification_sinks where id = ${sink.id}`;
    expect(JSON.stringify(row!.provider_config)).not.toContain("very-secret");
    expect(row!.secrets).toMatch(/^vault:v1:/);
  });
});
