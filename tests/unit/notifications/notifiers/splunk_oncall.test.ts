// The Splunk On-Call provider against its recorded fixture, tests/fixtures/notifications/splunk_oncall.json
// (support.ts), and what a case cannot say: the public endpoint, keys escaped in the path.
import { describe, expect, it } from "vitest";
import { splunk_oncall } from "../../../../shared/domain/notifications/notifiers/splunk_oncall.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(splunk_oncall);

describe("splunk_oncall", () => {
  it("posts to alert.victorops.com with the keys escaped in the path", () => {
    const spec = splunk_oncall.render({
      config: { routing_key: "db team" },
      secrets: { api_key: "a/b" },
      message: DEFAULT_ALERT,
      nowSecs: 0,
    });
    expect(spec.url).toBe("https://alert.victorops.com/integrations/generic/20131114/alert/a%2Fb/db%20team");
  });
});
