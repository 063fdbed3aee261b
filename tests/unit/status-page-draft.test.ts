// The status page editor's draft (web/src/status-pages/page-draft.ts): the API's 422 paths mapped to the
// sections and items that were sent, so a message stays with its item after a reorder; moves within and
// across sections; the body sent for the API.
import { describe, expect, it } from "vitest";
import {
  bodyOf,
  draftOf,
  EMPTY_PAGE,
  keyedErrors,
  movedItem,
  newItem,
  newSection,
  type StatusPage,
} from "../../web/src/status-pages/page-draft.ts";

const page = () => {
  const a = {
    ...newSection(),
    name: "A",
    items: [
      { ...newItem("monitor"), ref: "3" },
      { ...newItem("tag"), tag: "nas" },
    ],
  };
  const b = { ...newSection(), name: "B", items: [{ ...newItem("service"), ref: "7", public_name: "Shop" }] };
  return [a, b];
};

describe("status page draft", () => {
  it("keys the API's field messages by the section or item they were about", () => {
    const sent = page();
    const fields = {
      slug: "A slug is …",
      sections: "Give the name the public sees.",
      "sections.0.items.0.public_name": "Give the name the public sees.",
      "sections.1.items.0.service_id": "No such service: 7.",
      "sections.1.name": "Must not be empty.",
      "sections.0.items.1": "kind must be …",
      "sections.5.name": "a section no longer there",
    };
    expect(keyedErrors(fields, sent)).toEqual({
      slug: "A slug is …",
      [`${sent[0]!.items[0]!.key}.public_name`]: "Give the name the public sees.",
      [`${sent[1]!.items[0]!.key}.ref`]: "No such service: 7.",
      [`${sent[1]!.key}.name`]: "Must not be empty.",
      [sent[0]!.items[1]!.key]: "kind must be …",
    });
    // Nothing deeper: the list's own message is shown.
    expect(keyedErrors({ sections: "At most 50." }, sent)).toEqual({ sections: "At most 50." });
  });

  it("moves an item within a section and across sections", () => {
    const [a, b] = page();
    const keys = (s: ReturnType<typeof page>) => s.map((x) => x.items.map((i) => i.key));
    const within = movedItem([a!, b!], 0, 1, 0, 0);
    expect(keys(within)).toEqual([[a!.items[1]!.key, a!.items[0]!.key], [b!.items[0]!.key]]);
    const across = movedItem([a!, b!], 0, 0, 1, 1);
    expect(keys(across)).toEqual([[a!.items[1]!.key], [b!.items[0]!.key, a!.items[0]!.key]]);
  });

  it("sends every field, empty ones as null, references as numbers", () => {
    const body = bodyOf({ ...EMPTY_PAGE, slug: " home ", title: "Home", sections: page() });
    expect(body).toMatchObject({ slug: "home", description: null, logo_url: null, custom_domain: null, published: false });
    expect(body.sections[0]!.items).toEqual([
      { kind: "monitor", monitor_id: 3, public_name: "" },
      { kind: "tag", tag: "nas", public_name: null },
    ]);
    expect(body.sections[1]!.items).toEqual([{ kind: "service", service_id: 7, public_name: "Shop" }]);
  });
  it("sends each stored item's key back, so a save keeps its badge URLs (docs/adr/0461); a new item has none", () => {
    const stored = {
      ...EMPTY_PAGE,
      id: 1,
      sections: [{ name: "A", show_messages: false, items: [{ kind: "monitor", monitor_id: 3, public_name: "NAS", key: "nas" }] }],
    } as unknown as StatusPage;
    const draft = draftOf(stored);
    draft.sections[0]!.items.push({ ...newItem("tag"), tag: "media" });
    const items = bodyOf(draft).sections[0]!.items;
    expect(items[0]).toMatchObject({ kind: "monitor", monitor_id: 3, key: "nas" });
    expect(items[1]).not.toHaveProperty("key");
  });
});
