// A member's down alert folds into the alert of its down group (dispatch-alerts.ts step 0, docs/adr/0440):
// one message, the group's, naming the member; a member of a group that is not down is sent on its own.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHarness, type Harness, startPeer } from "./support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ groupingDelayMs: 300 });
});
afterAll(async () => h?.close());

it("folds a member's down into its down group's alert and leaves an up group's member alone", async () => {
  const sql = h.t.sql;
  const peer = await startPeer();
  await h.sink("webhook", { url: peer.url }, { event_kinds: ["monitor.down"] });
  const monitor = async (name: string, checkType: string, groupId: number | null) =>
    (
      await sql<{ id: number }[]>`insert into monitors (name, check_type, host, group_id, status, last_polled_at)
        values (${name}, ${checkType}, ${checkType === "group" ? "" : "127.0.0.1"}, ${groupId}, 'down', now()) returning id`
    )[0]!.id;
  const outer = await monitor("fold-outer", "group", null);
  const inner = await monitor("fold-inner", "group", outer);
  const member = await monitor("fold-member", "tcp", inner);
  const otherGroup = await monitor("fold-other-group", "group", null);
  const lone = await monitor("fold-lone", "tcp", otherGroup);

  // As one recording transaction writes them: the member's failure first, then the groups it brought down.
  await h.enqueue(
    { monitor_id: member, title: "fold-member down" },
    { monitor_id: inner, title: "fold-inner down" },
    { monitor_id: outer, title: "fold-outer down" },
    { monitor_id: lone, title: "fold-lone down" },
  );
  await h.until(async () => {
    const [n] = await sql<{ open: number }[]>`select count(*)::int as open from notification_alerts a
      where a.monitor_id = any(${[outer, inner, member, lone]}) and (a.state = 'waiting'
        or exists (select 1 from notification_deliveries d where d.alert_id = a.id and d.state <> 'delivered'))`;
    return n!.open === 0;
  }, "every alert dispatched or folded, and what was sent delivered");
  const rows = await sql<{ monitor_id: number; id: number; state: string; suppressed_by: number | null }[]>`
    select monitor_id, id::int as id, state, suppressed_by::int as suppressed_by from notification_alerts
    where monitor_id = any(${[outer, inner, member, lone]}) order by id`;
  const of = (m: number) => rows.find((r) => r.monitor_id === m)!;
  // The nearest down group takes the member; each group is itself a member of the one above.
  expect(of(member)).toMatchObject({ state: "suppressed", suppressed_by: of(inner).id });
  expect(of(inner)).toMatchObject({ state: "suppressed", suppressed_by: of(outer).id });
  expect(of(outer)).toMatchObject({ state: "dispatched", suppressed_by: null });
  expect(of(lone)).toMatchObject({ state: "dispatched", suppressed_by: null });
  expect(peer.received).toHaveLength(2);
  const bodies = peer.received.map((r) => JSON.parse(r.body).data as { title: string; message: string });
  const outerMsg = bodies.find((b) => b.title.startsWith("fold-outer down"))!;
  expect(outerMsg.message).toContain("fold-inner down");
  expect(bodies.map((b) => b.title).some((t) => t.startsWith("fold-lone down"))).toBe(true);
  await peer.close();
});
