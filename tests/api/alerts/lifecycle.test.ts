// The alert lifecycle of docs/adr/0442-alert-lifecycle.md, through enqueueAlert: a down opens an incident, a
// degraded or down while it is open joins it, an up resolves it, a down after that opens a new one; an
// event has no incident, and a recovery with nothing open stands alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { enqueue } from "./support.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a?.t.close());

interface Row {
  id: number;
  kind: string;
  subject: string | null;
  incident_id: number | null;
  resolved_at: Date | null;
}
const rows = async (ids: number[]) =>
  a.t.sql<
    Row[]
  >`select id::int as id, kind, subject, incident_id::int as incident_id, resolved_at from notification_alerts where id in ${a.t.sql(ids)} order by id`;

describe("alert lifecycle", () => {
  it("a down opens an incident, a degraded and a down join it, an up resolves it, a later down opens a new one", async () => {
    const ids = await enqueue(
      a,
      { kind: "monitor.down", monitor_id: 4101 },
      { kind: "monitor.degraded", monitor_id: 4101, severity: "warning" },
      { kind: "monitor.down", monitor_id: 4101 },
      { kind: "monitor.up", monitor_id: 4101, severity: "info" },
      { kind: "monitor.down", monitor_id: 4101 },
    );
    const [open, degraded, again, up, reopened] = await rows(ids);
    expect(open).toMatchObject({ subject: "monitor:4101", incident_id: open!.id });
    expect(degraded!.incident_id).toBe(open!.id);
    expect(again!.incident_id).toBe(open!.id);
    expect(up!.incident_id).toBe(open!.id);
    expect(open!.resolved_at).not.toBeNull();
    for (const r of [degraded, again, up]) expect(r!.resolved_at).toBeNull();
    expect(reopened).toMatchObject({ incident_id: reopened!.id, resolved_at: null });
  });

  it("a degraded opens an incident that a later down joins", async () => {
    const ids = await enqueue(
      a,
      { kind: "monitor.degraded", monitor_id: 4102, severity: "warning" },
      { kind: "monitor.down", monitor_id: 4102 },
    );
    const [first, second] = await rows(ids);
    expect(first!.incident_id).toBe(first!.id);
    expect(second!.incident_id).toBe(first!.id);
  });

  it("subjects are apart: another monitor's down opens its own incident", async () => {
    const ids = await enqueue(a, { kind: "monitor.down", monitor_id: 4103 }, { kind: "monitor.down", monitor_id: 4104 });
    const [x, y] = await rows(ids);
    expect(x!.incident_id).toBe(x!.id);
    expect(y!.incident_id).toBe(y!.id);
  });

  it("a recovery with no open incident stands alone, and an event has neither subject nor incident", async () => {
    const ids = await enqueue(a, { kind: "monitor.up", monitor_id: 4105, severity: "info" }, { kind: "cve.finding", severity: "warning" });
    const [up, event] = await rows(ids);
    expect(up).toMatchObject({ subject: "monitor:4105", incident_id: null, resolved_at: null });
    expect(event).toMatchObject({ subject: null, incident_id: null });
  });

  it("a threshold rule's firing and clearing on one node are one incident", async () => {
    const detail = { rule_id: 9 };
    const ids = await enqueue(
      a,
      { kind: "metric.firing", target_type: "hardware", target_id: 77, detail },
      { kind: "metric.cleared", target_type: "hardware", target_id: 77, detail, severity: "info" },
    );
    const [fired, cleared] = await rows(ids);
    expect(fired).toMatchObject({ subject: "rule:9:hardware:77", incident_id: fired!.id });
    expect(cleared!.incident_id).toBe(fired!.id);
    expect((await rows([fired!.id]))[0]!.resolved_at).not.toBeNull();
  });
});
