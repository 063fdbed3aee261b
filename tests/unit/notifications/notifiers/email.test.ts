// The email provider against its recorded fixture, tests/fixtures/notifications/email.json (support.ts).
import { email } from "../../../../shared/domain/notifications/notifiers/email.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(email);
