// The slack provider against its recorded fixture, tests/fixtures/notifications/slack.json (support.ts).
import { slack } from "../../../../shared/domain/notifications/notifiers/slack.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(slack);
