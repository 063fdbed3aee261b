// The Redis circuit breaker on a driven clock: opens after the threshold of failures in a row, refuses
// without calling while open, lets one trial through after the open period, and closes on its success.
import { describe, expect, it } from "vitest";
import { BREAKER_FAILURES, BREAKER_OPEN_MS, CircuitBreaker, CircuitOpenError } from "../../../runtime/redis-breaker.ts";
import { capturingLogger, drivenClock } from "./support.ts";

const fail = () => Promise.reject(new Error("Command timed out"));

function breaker() {
  const clock = drivenClock(1_000_000);
  const logger = capturingLogger();
  let calls = 0;
  const b = new CircuitBreaker({ name: "redis", clock, logger });
  const counted =
    <T>(call: () => Promise<T>) =>
    () => {
      calls++;
      return call();
    };
  return { b, clock, logger, counted, calls: () => calls };
}

describe("CircuitBreaker", () => {
  it("opens after the threshold of consecutive failures and then does not call", async () => {
    const { b, counted, calls, logger } = breaker();
    for (let i = 0; i < BREAKER_FAILURES; i++) {
      expect(b.state).toBe("closed");
      await expect(b.run(counted(fail))).rejects.toThrow("Command timed out");
    }
    expect(b.state).toBe("open");
    await expect(b.run(counted(() => Promise.resolve("ok")))).rejects.toBeInstanceOf(CircuitOpenError);
    expect(calls()).toBe(BREAKER_FAILURES);
    expect(logger.lines.filter((l) => l.level === "warn")).toHaveLength(1);
  });

  it("a success resets the count of failures", async () => {
    const { b } = breaker();
    for (let i = 0; i < BREAKER_FAILURES - 1; i++) await expect(b.run(fail)).rejects.toThrow();
    expect(await b.run(() => Promise.resolve(1))).toBe(1);
    for (let i = 0; i < BREAKER_FAILURES - 1; i++) await expect(b.run(fail)).rejects.toThrow();
    expect(b.state).toBe("closed");
  });

  it("after the open period one trial goes through: a failure opens it again, a success closes it", async () => {
    const { b, clock, counted, calls } = breaker();
    for (let i = 0; i < BREAKER_FAILURES; i++) await expect(b.run(fail)).rejects.toThrow();
    clock.advance(BREAKER_OPEN_MS);
    expect(b.state).toBe("half_open");
    await expect(b.run(counted(fail))).rejects.toThrow("Command timed out");
    expect(b.state).toBe("open");
    clock.advance(BREAKER_OPEN_MS - 1);
    await expect(b.run(counted(fail))).rejects.toBeInstanceOf(CircuitOpenError);
    clock.advance(1);

    // While the trial is out, the other calls are refused without calling.
    let answer!: (v: string) => void;
    const trial = b.run(counted(() => new Promise<string>((r) => (answer = r))));
    expect(b.state).toBe("open");
    await expect(b.run(counted(() => Promise.resolve("other")))).rejects.toBeInstanceOf(CircuitOpenError);
    answer("pong");
    expect(await trial).toBe("pong");
    expect(b.state).toBe("closed");
    expect(calls()).toBe(2);
  });
});
