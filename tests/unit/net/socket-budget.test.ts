import { describe, expect, it } from "vitest";
import { SocketBudget } from "../../../net/socket-budget.ts";

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("SocketBudget", () => {
  it("never grants more than max slots, records the peak, and hands freed slots on in order", async () => {
    const budget = new SocketBudget(3);
    const order: number[] = [];
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        budget.with(async () => {
          running++;
          most = Math.max(most, running);
          order.push(i);
          await tick();
          running--;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(budget.peak).toBe(3);
    expect(budget.inUse).toBe(0);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("an aborted wait rejects, takes no slot and leaves the queue to the others", async () => {
    const budget = new SocketBudget(1);
    const hold = await budget.acquire();
    const controller = new AbortController();
    const aborted = budget.acquire(controller.signal);
    const next = budget.acquire();
    controller.abort(new Error("stop"));
    await expect(aborted).rejects.toThrow("stop");
    hold();
    hold(); // a second release of the same slot changes nothing
    const release = await next;
    expect(budget.inUse).toBe(1);
    release();
    expect(budget.inUse).toBe(0);
    await expect(budget.acquire(controller.signal)).rejects.toThrow("stop");
  });

  it("refuses a budget that is not a positive integer", () => {
    expect(() => new SocketBudget(0)).toThrow(RangeError);
    expect(() => new SocketBudget(1.5)).toThrow(RangeError);
  });
});
