// The generic HTTP request provider against its fixture, tests/fixtures/notifications/http_request.json
// (support.ts), and its header lines' checks.
import { describe, expect, it } from "vitest";
import { headerLinesProblem, http_request } from "../../../../shared/domain/notifications/notifiers/http_request.ts";
import { splitProviderConfig } from "../../../../shared/domain/notifications/notifier-config.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(http_request);

describe("http_request config", () => {
  it("takes Name: value lines and refuses anything else, naming no value", () => {
    expect(headerLinesProblem("Authorization: Bearer x\n\nX-A: b:c")).toBeNull();
    expect(headerLinesProblem("Authorization Bearer secret-token")).toBe('must be "Name: value" lines');
    expect(headerLinesProblem(": x")).toBe('must be "Name: value" lines');
    expect(headerLinesProblem("Bad Name: x")).toBe('must be "Name: value" lines');
    expect(headerLinesProblem("Host: evil.example")).toBe("cannot set Host (the sender sets it)");
  });

  it("answers 422s naming the key: headers, the body template, the method", () => {
    const { issues, value } = splitProviderConfig("http_request", {
      url: "http://127.0.0.1:9/x",
      method: "DELETE",
      headers: "Authorization Bearer secret-token",
      request_body: '{"t": "{{titel}}"}',
      content_type: "json",
    });
    expect(issues.map((i) => [i.loc.join("."), i.msg])).toEqual([
      ["body.provider_config.method", "method must be one of GET, POST, PUT, PATCH."],
      ["body.provider_config.headers", 'headers must be "Name: value" lines.'],
      ["body.provider_config.request_body", "request_body names an unknown field: titel."],
      ["body.provider_config.content_type", "content_type must be a media type such as application/json."],
    ]);
    expect(JSON.stringify(issues)).not.toContain("secret-token");
    expect(value.secrets).toEqual({});
  });

  it("seals the header lines as a secret", () => {
    const { issues, value } = splitProviderConfig("http_request", { url: "http://127.0.0.1:9/x", headers: "X-Key: k" });
    expect(issues).toEqual([]);
    expect(value).toEqual({ plain: { url: "http://127.0.0.1:9/x" }, secrets: { headers: "X-Key: k" } });
  });
});
