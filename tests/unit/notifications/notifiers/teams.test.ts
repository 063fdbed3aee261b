// The teams provider against its recorded fixture, tests/fixtures/notifications/teams.json (support.ts).
import { teams } from "../../../../shared/domain/notifications/notifiers/teams.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(teams);
