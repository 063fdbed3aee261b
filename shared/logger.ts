// Structured JSON logs, one line per event, on stdout (web-standard console, so it runs on the edge too).
import { redactSecrets, safeErrorFields } from "./safe-error.ts";
export type LogLevel = "debug" | "info" | "warn" | "error";
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Fields as they may be written: an Error is described by safeErrorFields (under `error` its fields join
 * the line, under another key they nest), and text passes redactSecrets, so no caller can log a failed
 * query's parameters or a stored secret by accident.
 */
function safeFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Error) {
      if (key === "error") Object.assign(out, safeErrorFields(value));
      else out[key] = safeErrorFields(value);
    } else out[key] = typeof value === "string" ? redactSecrets(value) : value;
  }
  return out;
}

export function jsonLogger(level: LogLevel = "info", write: (line: string) => void = (l) => console.log(l)): Logger {
  const emit =
    (lvl: LogLevel) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (order[lvl] < order[level]) return;
      write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...safeFields(fields) }));
    };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
