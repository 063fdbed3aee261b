// The ntfy provider against its recorded fixture, tests/fixtures/notifications/ntfy.json (support.ts).
import { ntfy } from "../../../../shared/domain/notifications/notifiers/ntfy.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(ntfy);
