// The public state of a status page item and of the page (docs/adr/0454-status-pages.md).
import { describe, expect, it } from "vitest";
import { itemState, pageState } from "../../shared/domain/status-pages/item-state.ts";

describe("status page states", () => {
  it("folds an item's monitors: all down is down, some down is degraded", () => {
    expect(itemState([])).toBe("unknown");
    expect(itemState(["pending"])).toBe("unknown");
    expect(itemState(["up", "up"])).toBe("up");
    expect(itemState(["down"])).toBe("down");
    expect(itemState(["down", "up"])).toBe("degraded");
    expect(itemState(["down", "maintenance"])).toBe("down");
    expect(itemState(["degraded", "up"])).toBe("degraded");
    expect(itemState(["maintenance", "up"])).toBe("maintenance");
  });

  it("folds the page's items", () => {
    expect(pageState([])).toBe("unknown");
    expect(pageState(["up", "unknown"])).toBe("operational");
    expect(pageState(["down", "down"])).toBe("outage");
    expect(pageState(["down", "up"])).toBe("degraded");
    expect(pageState(["maintenance", "up"])).toBe("maintenance");
  });
});
