// Temperatures from /sys/class/thermal/thermal_zone*/temp and /sys/class/hwmon/hwmon*/temp*_input
// (millidegrees Celsius). Either may be absent (VMs, containers): then the list is empty and
// max_temp_c is null.
import { listDir, readText, round2 } from "./proc.ts";

export interface Temperature {
  sensor: string;
  label: string;
  celsius: number;
}

const millis = (text: string | undefined) => {
  const n = Number(text?.trim());
  return text !== undefined && Number.isFinite(n) ? round2(n / 1000) : undefined;
};

export function readTemperatures(sysRoot = "/sys"): Temperature[] {
  const out: Temperature[] = [];
  const thermal = `${sysRoot}/class/thermal`;
  for (const zone of listDir(thermal).filter((z) => z.startsWith("thermal_zone"))) {
    const c = millis(readText(`${thermal}/${zone}/temp`));
    if (c !== undefined) out.push({ sensor: zone, label: readText(`${thermal}/${zone}/type`)?.trim() || zone, celsius: c });
  }
  const hwmon = `${sysRoot}/class/hwmon`;
  for (const dev of listDir(hwmon)) {
    const chip = readText(`${hwmon}/${dev}/name`)?.trim() || dev;
    for (const input of listDir(`${hwmon}/${dev}`).filter((f) => /^temp\d+_input$/.test(f))) {
      const c = millis(readText(`${hwmon}/${dev}/${input}`));
      const label = readText(`${hwmon}/${dev}/${input.replace("_input", "_label")}`)?.trim();
      if (c !== undefined) out.push({ sensor: `${chip}/${input.replace("_input", "")}`, label: label || chip, celsius: c });
    }
  }
  return out;
}

/** The hottest reading, or null with none. Readings outside -40..200 °C are sensor noise. */
export function maxTemperature(list: Temperature[]): number | null {
  const valid = list.map((t) => t.celsius).filter((c) => c > -40 && c < 200);
  return valid.length ? Math.max(...valid) : null;
}
