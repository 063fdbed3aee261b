// The telegram provider against its recorded fixture, tests/fixtures/notifications/telegram.json (support.ts).
import { telegram } from "../../../../shared/domain/notifications/notifiers/telegram.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(telegram);
