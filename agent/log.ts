// The agent's log: one line per event on stderr, below a level. Secrets (the device key, transport keys)
// never reach it; callers pass only what an operator may read.
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface AgentLog {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

export function consoleLog(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): AgentLog {
  const min = LOG_LEVELS.indexOf(level);
  const at = (l: LogLevel) => (msg: string) => {
    if (LOG_LEVELS.indexOf(l) >= min) write(`${new Date().toISOString()} ${l.padEnd(5)} ${msg}`);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

export const silentLog: AgentLog = { debug() {}, info() {}, warn() {}, error() {} };
