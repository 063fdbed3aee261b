// Which extra nmap arguments a profile or scan may carry. nmap can write files (-oN), read target lists
// (-iL), run scripts (--script), spoof sources (-S, -D) and scan outside the job's targets; so only a
// whitelist of timing, detection and port-selection flags passes, each value checked. Pure: the request
// validation (422) and the sidecar's engine apply the same rule.

export const MAX_NMAP_ARGUMENTS_LENGTH = 256;

type ValueCheck = (v: string) => boolean;

const int =
  (min: number, max: number): ValueCheck =>
  (v) =>
    /^\d{1,6}$/.test(v) && Number(v) >= min && Number(v) <= max;
const duration: ValueCheck = (v) => /^\d{1,6}(?:ms|s|m|h)?$/.test(v);
const portSpec: ValueCheck = (v) =>
  v.length <= 200 &&
  v.split(",").every((part) => {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(part);
    return (
      !!m && Number(m[1]) >= 1 && Number(m[1]) <= 65535 && (m[2] === undefined || (Number(m[2]) >= Number(m[1]) && Number(m[2]) <= 65535))
    );
  });

const FLAGS = new Set([
  "-sT",
  "-sS",
  "-sV",
  "-sn",
  "-O",
  "-Pn",
  "-n",
  "-R",
  "-F",
  "-v",
  "-T0",
  "-T1",
  "-T2",
  "-T3",
  "-T4",
  "-T5",
  "--open",
  "--reason",
  "--osscan-guess",
  "--osscan-limit",
  "--version-light",
  "--version-all",
  "--traceroute",
]);

const WITH_VALUE: Record<string, ValueCheck> = {
  "--top-ports": int(1, 1000),
  "--max-retries": int(0, 10),
  "--host-timeout": duration,
  "--max-rtt-timeout": duration,
  "--initial-rtt-timeout": duration,
  "--scan-delay": duration,
  "--version-intensity": int(0, 9),
  "--max-rate": int(1, 100000),
  "--min-rate": int(1, 100000),
  "--max-parallelism": int(1, 1024),
  "--min-parallelism": int(1, 1024),
  "--min-hostgroup": int(1, 4096),
  "--max-hostgroup": int(1, 4096),
  "-p": portSpec,
};

/** Flags that choose the ports themselves: the engine then does not add the job's -p list. */
const PORT_SELECTING = new Set(["-p", "--top-ports", "-F", "-sn"]);

export type NmapArguments = { ok: true; value: string[]; selectsPorts: boolean } | { ok: false; message: string };

/** Splits on whitespace and checks every flag; `-T4`, `--top-ports 100`, `--top-ports=100`, `-p22,80`, `-p 1-1024`. */
export function parseNmapArguments(raw: string | null | undefined): NmapArguments {
  const text = (raw ?? "").trim();
  if (text.length > MAX_NMAP_ARGUMENTS_LENGTH)
    return { ok: false, message: `nmap_arguments may hold at most ${MAX_NMAP_ARGUMENTS_LENGTH} characters` };
  const tokens = text ? text.split(/\s+/) : [];
  const out: string[] = [];
  let selectsPorts = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (FLAGS.has(token)) {
      out.push(token);
      if (PORT_SELECTING.has(token)) selectsPorts = true;
      continue;
    }
    const eq = token.startsWith("--") ? token.indexOf("=") : -1;
    let flag = eq > 0 ? token.slice(0, eq) : token;
    let value: string | undefined = eq > 0 ? token.slice(eq + 1) : undefined;
    if (!WITH_VALUE[flag] && token.startsWith("-p") && token.length > 2) {
      flag = "-p";
      value = token.slice(2);
    }
    const check = WITH_VALUE[flag];
    if (!check)
      return {
        ok: false,
        message: `nmap argument '${token}' is not allowed (allowed: ${[...FLAGS, ...Object.keys(WITH_VALUE)].join(" ")})`,
      };
    if (value === undefined) value = tokens[++i];
    if (value === undefined || !check(value))
      return { ok: false, message: `nmap argument ${flag} needs a valid value, got '${value ?? ""}'` };
    out.push(flag, value);
    if (PORT_SELECTING.has(flag)) selectsPorts = true;
  }
  return { ok: true, value: out, selectsPorts };
}
