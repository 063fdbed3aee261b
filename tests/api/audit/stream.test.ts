// GET /logs/stream: Server-Sent Events with the newest entries first, then entries appended later.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, json } from "./harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  for (const n of [6, 7, 8])
    expect((await h.call("/api/v1/settings", { method: "PUT", ...json({ lockout_threshold: n }) })).status).toBe(200);
});
afterAll(async () => h.t.close());

interface SseEvent {
  event: string;
  id?: string;
  data: string;
}

/** Reads events off an SSE body until `until` says stop (or the stream ends). */
async function readEvents(res: Response, until: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  try {
    while (!until(events)) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const e: SseEvent = { event: "message", data: "" };
        for (const line of block.split("\n")) {
          if (line.startsWith("event: ")) e.event = line.slice(7);
          else if (line.startsWith("id: ")) e.id = line.slice(4);
          else if (line.startsWith("data: ")) e.data += line.slice(6);
        }
        if (!block.startsWith(":")) events.push(e);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return events;
}

const audits = (events: SseEvent[]) => events.filter((e) => e.event === "audit").map((e) => JSON.parse(e.data));

describe("GET /logs/stream", () => {
  it("sends the newest entries first, then one appended later", async () => {
    const res = await h.call("/api/v1/logs/stream?limit=2&max_seconds=20");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    let appended = false;
    const events = await readEvents(res, (ev) => {
      const got = audits(ev);
      if (got.length >= 2 && !appended) {
        appended = true;
        // Appended while the stream is open; the next poll (within 2 s) must carry it.
        void h.call("/api/v1/settings", { method: "PUT", ...json({ lockout_threshold: 42 }) });
      }
      return got.some((e) => e.diff?.after?.lockout_threshold === 42);
    });
    const got = audits(events);
    expect(got.slice(0, 2).map((e) => e.diff.after.lockout_threshold)).toEqual([7, 8]);
    expect(got.at(-1)).toMatchObject({ action: "settings.updated", actor_id: h.adminId, diff: { after: { lockout_threshold: 42 } } });
    // SSE ids are the entry ids, rising.
    const ids = events.filter((e) => e.event === "audit").map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBe(got[0].id);
  });

  it("resumes after Last-Event-ID and closes with an end event after max_seconds", async () => {
    const [row] = await h.t.sql<{ id: string }[]>`select id from audit_log where action = 'settings.updated' order by id limit 1`;
    const res = await h.call("/api/v1/logs/stream?max_seconds=1", { headers: { "last-event-id": String(row!.id) } });
    const events = await readEvents(res, () => false);
    const got = audits(events);
    expect(got[0].id).toBeGreaterThan(Number(row!.id));
    expect(got.map((e) => e.diff?.after?.lockout_threshold).filter(Boolean)).toEqual([7, 8, 42]);
    expect(events.at(-1)).toEqual({ event: "end", data: JSON.stringify({ reason: "max_seconds" }) });
  });

  it("is for administrators only, answered as JSON before any stream opens", async () => {
    const viewer = await h.call("/api/v1/logs/stream", { token: h.viewerToken });
    expect(viewer.status).toBe(403);
    expect(viewer.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await h.call("/api/v1/logs/stream", { token: "" })).status).toBe(401);
    expect((await h.call("/api/v1/logs/stream?max_seconds=0")).status).toBe(422);
    expect((await h.call("/api/v1/logs/stream?max_seconds=99999")).status).toBe(422);
  });
});
