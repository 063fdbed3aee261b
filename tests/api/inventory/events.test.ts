// Every inventory change emits NOTIFY on the `inventory` (and, for graph objects, `topology`) channel,
// delivered only when the change commits: what the sidecar's live streams forward.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
const heard: { channel: string; payload: Record<string, unknown> }[] = [];

beforeAll(async () => {
  a = await createActors();
  for (const channel of ["inventory", "topology"]) await a.t.sql.listen(channel, (p) => heard.push({ channel, payload: JSON.parse(p) }));
});
afterAll(async () => a.t.close());

const until = async (pred: () => boolean) => {
  for (let i = 0; i < 50 && !pred(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe("change events", () => {
  it("a committed create is announced on both channels", async () => {
    const hw = await (await a.req("POST", "hardware", a.editor, { name: "announced" })).json();
    await until(() => heard.length >= 2);
    expect(heard).toEqual(
      expect.arrayContaining([
        { channel: "inventory", payload: { entity: "hardware", action: "create", id: hw.id } },
        { channel: "topology", payload: { entity: "hardware", action: "create", id: hw.id } },
      ]),
    );
  });

  it("a refused write announces nothing", async () => {
    heard.length = 0;
    expect((await a.req("POST", "hardware", a.editor, { name: "x", environment_id: 424242 })).status).toBe(422);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toEqual([]);
  });

  it("a journal entry's writes are announced on the inventory channel", async () => {
    const hw = await (await a.req("POST", "hardware", a.editor, { name: "noted" })).json();
    heard.length = 0;
    const entry = await (await a.req("POST", "journal", a.editor, { object_type: "hardware", object_id: hw.id, comments: "hello" })).json();
    await a.req("DELETE", `journal/${entry.id}`, a.editor);
    // The hardware's own events may still be arriving: only the journal's are looked at.
    const journal = () => heard.filter((h) => h.payload.entity === "journal_entry");
    await until(() => journal().length >= 2);
    expect(journal()).toEqual([
      { channel: "inventory", payload: { entity: "journal_entry", action: "create", id: entry.id } },
      { channel: "inventory", payload: { entity: "journal_entry", action: "delete", id: entry.id } },
    ]);
  });
});
