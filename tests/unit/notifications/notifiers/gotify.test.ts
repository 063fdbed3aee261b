// The gotify provider against its recorded fixture, tests/fixtures/notifications/gotify.json (support.ts).
import { gotify } from "../../../../shared/domain/notifications/notifiers/gotify.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(gotify);
