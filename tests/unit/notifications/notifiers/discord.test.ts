// The discord provider against its recorded fixture, tests/fixtures/notifications/discord.json (support.ts).
import { discord } from "../../../../shared/domain/notifications/notifiers/discord.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(discord);
