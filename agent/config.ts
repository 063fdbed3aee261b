// The installer's config file (/etc/svc-agent/agent.toml, written by install-agent.sh): one
// `key = "value"` (or bare number) per line, `#` comments. Only the flat subset the installer writes is
// read, not TOML at large; an unknown key or a line of another shape is refused with its line number, so
// a typo does not silently fall back to a default.
export interface FileConfig {
  server_url?: string;
  server_static_pk?: string;
  tls_pin?: string;
  log_level?: string;
  spool_cap_bytes?: number;
  state_dir?: string;
  name?: string;
  update_link_deadline_seconds?: number;
}

const STRING_KEYS = new Set(["server_url", "server_static_pk", "tls_pin", "log_level", "state_dir", "name"]);
const NUMBER_KEYS = new Set(["spool_cap_bytes", "update_link_deadline_seconds"]);
const LINE = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(-?\d+))\s*(?:#.*)?$/;

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseConfig(text: string): FileConfig {
  const out: Record<string, string | number> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const m = LINE.exec(line);
    if (!m) throw new ConfigError(`line ${i + 1}: expected key = "value"`);
    const key = m[1]!;
    if (STRING_KEYS.has(key)) {
      if (m[4] !== undefined) throw new ConfigError(`line ${i + 1}: ${key} takes a quoted string`);
      out[key] = m[2] !== undefined ? unquote(m[2]) : m[3]!;
    } else if (NUMBER_KEYS.has(key)) {
      if (m[4] === undefined) throw new ConfigError(`line ${i + 1}: ${key} takes a number`);
      out[key] = Number(m[4]);
    } else {
      throw new ConfigError(`line ${i + 1}: unknown key ${key}`);
    }
  });
  return out as FileConfig;
}

function unquote(s: string): string {
  return s.replace(/\\(["\\nt])/g, (_, c: string) => ({ n: "\n", t: "\t" })[c] ?? c);
}
