// Escalation policies and quiet hours on the routes screen in a real browser (docs/notifications.md),
// against the product started as the README says, with two sinks and a route made through the API:
// - a policy whose step names no sink shows the API's 422 on that step, then is created;
// - the route's paging settings name the policy and quiet hours; an unknown zone shows its 422 on the
//   time zone field, then the route lists both;
// - the policy is edited, and deleting it while the route names it says so (409), nothing removed.
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.237";
const ADMIN = { email: "escalation@example.com", password: "a long passphrase for escalation" };

describe.skipIf(!hasChromium)("escalation policies and quiet hours in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);
  let routeId = 0;

  beforeAll(async () => {
    const sink = async (name: string) =>
      (
        await s.api("POST", "/notifications/sinks", {
          name,
          provider_type: "telegram",
          provider_config: { bot_token: "1:abc", chat_id: "42" },
        })
      ).id as number;
    const chat = await sink("team chat");
    await sink("pager");
    routeId = (await s.api("POST", "/notifications/routes", { sink_id: chat })).id as number;
  }, 300_000);

  it("creates a policy, gives the route the policy and quiet hours, edits the policy", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Notifications" }).click();
    await seen(page.getByRole("heading", { name: "Escalation policies" }));
    await seen(page.getByText("No escalation policies: a route pages only its own sink."));

    await page.getByRole("button", { name: "New escalation policy" }).click();
    await page.getByLabel("Policy name").fill("night shift");
    await page.getByLabel("Step 1: wait (minutes)").fill("5");
    await page.getByRole("button", { name: "Create policy" }).click();
    await seen(page.locator("#policy-step-0-sinks-error").getByText("A step must notify at least one sink."));
    expect((await s.api("GET", "/notifications/escalation-policies")).total).toBe(0);
    await page.getByRole("group", { name: "Step 1: notify" }).getByLabel("pager").check();
    await page.getByLabel("Re-notify the route's sink every (minutes)").fill("30");
    await page.getByRole("button", { name: "Create policy" }).click();
    const policyRow = await seen(page.locator("tr[data-policy]"));
    await seen(policyRow.getByText("1: after 5 min, pager"));
    await seen(policyRow.getByText("every 30 min"));
    const [policy] = (await s.api("GET", "/notifications/escalation-policies")).items as { id: number }[];
    expect(policy).toMatchObject({ name: "night shift", steps: [{ after_minutes: 5 }], repeat: 0, renotify_every_minutes: 30 });

    const route = page.locator(`tr[data-route="${routeId}"]`);
    await route.getByRole("button", { name: "Paging…" }).click();
    await page.getByLabel("Escalation policy").selectOption({ label: "night shift" });
    await page.getByLabel("Quiet hours").check();
    await page.getByLabel("Time zone").fill("Mars/Olympus");
    await page.getByRole("button", { name: "Save paging" }).click();
    await seen(page.locator("#route-quiet-zone-error").getByText("Must be an IANA time zone"));
    expect(await page.getByLabel("Time zone").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Time zone").fill("Europe/Berlin");
    await page.getByLabel("Window 1 starts (HH:MM)").fill("23:00");
    await page.getByLabel("Hold alerts below").selectOption("warning");
    await shot(page, "59-route-paging");
    await page.getByRole("button", { name: "Save paging" }).click();
    await seen(route.getByText("night shift"));
    await seen(route.getByText("23:00-07:00 (Europe/Berlin), holds below warning"));
    expect(await s.api("GET", `/notifications/routes/${routeId}`)).toMatchObject({
      escalation_policy_id: policy!.id,
      quiet_hours: {
        timezone: "Europe/Berlin",
        windows: [{ days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], start: "23:00", end: "07:00" }],
        hold_below: "warning",
      },
    });

    await policyRow.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Repeat the sequence (times)").fill("2");
    await page.getByRole("button", { name: "Save policy" }).click();
    await seen(policyRow.getByText("2 more"));
    await shot(page, "60-escalation-policies");

    // The route still names it: the delete is refused, and says which route.
    page.once("dialog", (d) => void d.accept());
    await policyRow.getByRole("button", { name: "Delete" }).click();
    await seen(page.getByText(`is named by route ${routeId}`));
    expect((await s.api("GET", "/notifications/escalation-policies")).total).toBe(1);
  });
});
