// Message templates (shared/domain/notifications/templates.ts): which names a template may use, checked
// as mustache resolves them (sections first), and how the title and body render.
import { describe, expect, it } from "vitest";
import { splitProviderConfig } from "../../../shared/domain/notifications/notifier-config.ts";
import { NOTIFIER_FIELDS } from "../../../shared/domain/notifications/notifiers/index.ts";
import {
  applyTemplates,
  renderTemplate,
  SAMPLE_ALERT,
  TEMPLATE_FIELDS,
  templateProblem,
  templateView,
} from "../../../shared/domain/notifications/templates.ts";
import { DEFAULT_ALERT } from "../../helpers/notification-fixtures.ts";

describe("templateProblem", () => {
  it("accepts the catalogue's names, dotted names and sections over objects and lists", () => {
    for (const t of [
      "{{title}} {{monitor.name}} {{target.type}} {{links.acknowledge}} {{{body}}} {{&message}}",
      "{{#monitor}}{{name}} ({{check_type}} {{host}}){{/monitor}}",
      "{{#affected}}- {{title}} on {{target_type}} {{target_id}}, root {{monitor.name}}{{/affected}}",
      "{{^affected}}alone{{/affected}}{{! a comment }}{{=<% %>=}}<% status %>",
      "{{#links.alert}}<{{links.alert}}>{{/links.alert}} {{#affected}}{{.}}{{/affected}}",
    ])
      expect(templateProblem(t), t).toBeNull();
  });

  it("names the unknown field, inside sections too", () => {
    expect(templateProblem("{{titel}}")).toBe("names an unknown field: titel");
    expect(templateProblem("{{monitor.nmae}}")).toBe("names an unknown field: monitor.nmae");
    expect(templateProblem("{{#affected}}{{hostname}}{{/affected}}")).toBe("names an unknown field: hostname (in {{#affected}})");
    expect(templateProblem("{{#nope}}x{{/nope}}")).toBe("names an unknown field: nope");
    // A name of an item is not in reach outside its section.
    expect(templateProblem("{{target_type}}")).toBe("names an unknown field: target_type");
    // An inverted section renders when the value is empty: nothing of it is in reach.
    expect(templateProblem("{{^monitor}}{{name}}{{/monitor}}")).toBe("names an unknown field: name (in {{^monitor}})");
    expect(templateProblem("{{constructor}} {{__proto__}}")).toBe("names an unknown field: constructor");
  });

  it("refuses what does not parse, partials and very long templates", () => {
    expect(templateProblem("{{#affected}}x")).toMatch(/^does not parse: Unclosed section "affected"/);
    expect(templateProblem("{{title")).toMatch(/^does not parse: Unclosed tag/);
    expect(templateProblem("{{> footer}}")).toBe("uses a partial ({{> footer}}): none are defined");
    expect(templateProblem("x".repeat(4001))).toBe("is longer than 4000 characters");
  });

  it("is the check of title_template and body_template on every provider: a 422 naming the key", () => {
    for (const fields of Object.values(NOTIFIER_FIELDS))
      expect(Object.keys(fields)).toEqual(expect.arrayContaining(["title_template", "body_template"]));
    const { issues } = splitProviderConfig("slack", {
      webhook_url: "https://hooks.slack.com/services/T/B/X",
      title_template: "{{monitor.name}} {{state}}",
      body_template: "{{#affected}}",
    });
    expect(issues.map((i) => [i.loc.join("."), i.msg])).toEqual([
      ["body.provider_config.title_template", "title_template names an unknown field: state."],
      ["body.provider_config.body_template", 'body_template does not parse: Unclosed section "affected" at 13.'],
    ]);
  });
});

describe("rendering", () => {
  it("the view holds every catalogue key and nothing else", () => {
    expect(Object.keys(templateView(SAMPLE_ALERT)).sort()).toEqual(Object.keys(TEMPLATE_FIELDS).sort());
    expect(Object.keys(templateView(SAMPLE_ALERT).monitor!).sort()).toEqual(Object.keys(TEMPLATE_FIELDS.monitor!.fields!).sort());
    expect(Object.keys(templateView(SAMPLE_ALERT).affected[0]!).sort()).toEqual(Object.keys(TEMPLATE_FIELDS.affected!.fields!).sort());
  });

  it("renders the sample without HTML escaping, lists over the folded dependents", () => {
    const out = applyTemplates(
      {
        title_template: "[{{severity}}] {{monitor.name}} is {{status}}",
        body_template: "{{message}} <{{links.alert}}>\n{{#affected}}- {{title}} (node {{target_id}})\n{{/affected}}",
      },
      SAMPLE_ALERT,
    );
    expect(out.title).toBe("[critical] core-switch is firing");
    expect(out.body).toBe('100% packet loss <https://ops.example.com/alerts/1042>\n- web-1 down (node 5)\n- "db-1" down (node 6)');
    expect(out.id).toBe(SAMPLE_ALERT.id);
  });

  it("keeps the server's text when a sink has no template or one renders blank", () => {
    expect(applyTemplates({}, DEFAULT_ALERT)).toEqual(DEFAULT_ALERT);
    const out = applyTemplates({ title_template: "{{#monitor}}{{name}}{{/monitor}}", body_template: "{{body}}!" }, DEFAULT_ALERT);
    expect(out.title).toBe("Server down");
    expect(out.body).toBe("The server did not answer!");
  });

  it("escapes each value with the escaper given (a JSON string), never the template's own text", () => {
    expect(renderTemplate('{"t": "{{body}}"}', templateView(SAMPLE_ALERT), (s) => JSON.stringify(s).slice(1, -1))).toBe(
      '{"t": "core-switch (ping 10.0.0.2) is down: 100% packet loss\\n\\nAlso down because of it (2):\\n- web-1 down\\n- \\"db-1\\" down"}',
    );
  });

  it("clips a long rendered title", () => {
    const out = applyTemplates({ title_template: "{{body}}{{body}}{{body}}{{body}}{{body}}" }, SAMPLE_ALERT);
    expect(out.title.length).toBe(500);
    expect(out.title.endsWith("…")).toBe(true);
  });
});
