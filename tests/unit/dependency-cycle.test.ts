import { describe, expect, it } from "vitest";
import { cyclePath, type DependencyEdge, describeCycle } from "../../shared/domain/dependency-cycle.ts";

const edges = (...pairs: [number | null, number][]): DependencyEdge[] => pairs.map(([from, to]) => ({ from, to }));

describe("cyclePath", () => {
  it("finds the three-service cycle a new edge would close", () => {
    // 1 depends on 2, 2 depends on 3; adding 3 -> 1 closes 3 -> 1 -> 2 -> 3.
    expect(cyclePath(3, 1, edges([null, 1], [1, 2], [2, 3]))).toEqual([3, 1, 2, 3]);
  });

  it("a direct reverse edge is a two-step cycle", () => {
    expect(cyclePath(1, 2, edges([null, 2], [2, 1]))).toEqual([1, 2, 1]);
  });

  it("a self-edge is the shortest cycle", () => {
    expect(cyclePath(5, 5, [])).toEqual([5, 5]);
  });

  it("picks a shortest path when several lead back", () => {
    // 1 -> 2 -> 3 -> 4 -> 9 and 1 -> 5 -> 9: adding 9 -> 1 is closed fastest through 5.
    const walked = edges([null, 1], [1, 2], [2, 3], [3, 4], [4, 9], [1, 5], [5, 9]);
    expect(cyclePath(9, 1, walked)).toEqual([9, 1, 5, 9]);
  });

  it("null when the target does not reach the service", () => {
    expect(cyclePath(1, 2, edges([null, 2], [2, 3], [3, 4]))).toBeNull();
    expect(cyclePath(1, 2, [])).toBeNull();
  });

  it("ignores duplicate edges and does not loop on cycles already present", () => {
    const walked = edges([null, 2], [2, 3], [2, 3], [3, 2], [3, 1]);
    expect(cyclePath(1, 2, walked)).toEqual([1, 2, 3, 1]);
  });

  it("the path only uses edges that exist", () => {
    const walked = edges([null, 10], [10, 11], [11, 12], [12, 13], [13, 7], [10, 20]);
    const path = cyclePath(7, 10, walked)!;
    const known = new Set(walked.map((e) => `${e.from}>${e.to}`));
    for (let i = 1; i < path.length - 1; i++) expect(known.has(`${path[i]}>${path[i + 1]}`)).toBe(true);
    expect(path[0]).toBe(7);
    expect(path.at(-1)).toBe(7);
  });
});

describe("describeCycle", () => {
  it("joins the names with arrows", () => {
    const names = new Map([
      [1, "web"],
      [2, "api"],
      [3, "db"],
    ]);
    expect(describeCycle([3, 1, 2, 3], names)).toBe("db -> web -> api -> db");
  });

  it("shows an unknown service by id", () => {
    expect(describeCycle([1, 4, 1], new Map([[1, "web"]]))).toBe("web -> #4 -> web");
  });
});
