// The cycle a new dependency edge would close. The database answers whether `dependsOnId` reaches
// `serviceId` and hands back the edges it walked; this rebuilds the shortest such path and words it
// for the 409 ("a -> b -> c -> a").

/** An existing edge: `from` depends on `to`. */
export interface DependencyEdge {
  from: number | null;
  to: number;
}

/**
 * The cycle `serviceId -> dependsOnId -> ... -> serviceId` that adding the edge serviceId -> dependsOnId
 * would close, as service ids (first and last equal), or null when `dependsOnId` does not reach
 * `serviceId` over `edges`. Breadth-first, so the path is a shortest one.
 */
export function cyclePath(serviceId: number, dependsOnId: number, edges: readonly DependencyEdge[]): number[] | null {
  if (serviceId === dependsOnId) return [serviceId, serviceId];
  const next = new Map<number, number[]>();
  for (const e of edges) {
    if (e.from === null || e.from === e.to) continue;
    const list = next.get(e.from);
    if (list) list.push(e.to);
    else next.set(e.from, [e.to]);
  }
  const cameFrom = new Map<number, number>();
  const queue = [dependsOnId];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const node = queue.shift()!;
    if (node === serviceId) {
      const path = [node];
      for (let at = node; at !== dependsOnId; ) {
        at = cameFrom.get(at)!;
        path.push(at);
      }
      return [serviceId, ...path.reverse()];
    }
    for (const to of next.get(node) ?? []) {
      if (seen.has(to)) continue;
      seen.add(to);
      cameFrom.set(to, node);
      queue.push(to);
    }
  }
  return null;
}

/** "web -> api -> db -> web"; a service whose name is unknown shows as "#<id>". */
export function describeCycle(path: readonly number[], names: ReadonlyMap<number, string>): string {
  return path.map((id) => names.get(id) ?? `#${id}`).join(" -> ");
}
