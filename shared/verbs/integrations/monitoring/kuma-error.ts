// What Uptime Kuma's answers mean to us: its status codes, and the error an unusable answer raises.

/** A refusal of Uptime Kuma's answer (status, shape), worded for an operator: never the body itself. */
export class KumaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KumaError";
  }
}

export type MonitorStatus = "up" | "down" | "pending" | "maintenance";

/** Uptime Kuma's heartbeat and monitor_status codes; 4/5 (2.0's extra states) are not statuses we keep. */
export const KUMA_STATUS: Record<number, MonitorStatus> = { 0: "down", 1: "up", 2: "pending", 3: "maintenance" };
