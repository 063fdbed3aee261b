// Status page item keys (docs/adr/0461): slugs of the public names, a sent key kept, duplicates suffixed
// within 64 characters, two equal sent keys reported.
import { describe, expect, it } from "vitest";
import { assignItemKeys, slugOfName } from "../../shared/domain/status-pages/item-keys.ts";

describe("status page item keys", () => {
  it("slugs a public name, with a fallback for a name without a-z0-9", () => {
    expect(slugOfName("Storage cluster (EU)")).toBe("storage-cluster-eu");
    expect(slugOfName("Café Außen")).toBe("cafe-au-en");
    expect(slugOfName("日本")).toBe("item");
    expect(slugOfName(`${"a".repeat(63)} b`)).toBe("a".repeat(63));
  });

  it("keeps sent keys, suffixes derived duplicates and reports sent ones", () => {
    expect(
      assignItemKeys([
        { name: "Shop" },
        { name: "Shop", key: "shop-2" },
        { name: "Shop" },
        { name: "shop!" },
        { name: "x", key: "shop-2" },
      ]),
    ).toEqual({ keys: ["shop", "shop-2", "shop-3", "shop-4", "shop-2"], duplicates: [4] });
    const long = "b".repeat(64);
    const { keys } = assignItemKeys([{ name: long }, { name: long }]);
    expect(keys).toEqual([long, `${"b".repeat(62)}-2`]);
  });
});
