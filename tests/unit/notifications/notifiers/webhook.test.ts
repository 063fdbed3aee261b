// The webhook provider against its recorded fixture, tests/fixtures/notifications/webhook.json (support.ts).
import { webhook } from "../../../../shared/domain/notifications/notifiers/webhook.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(webhook);
