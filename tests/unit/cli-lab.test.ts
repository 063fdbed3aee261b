// The CLI's pure parts (cli/): the kinds table derived from the app's own OpenAPI document, table
// fitting, --jq selection, and the lab-file checks that need no server (secrets, env references).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSpecs } from "hono-openapi";
import { afterAll, describe, expect, it } from "vitest";
import { formatChanges } from "../../cli/apply.ts";
import { deriveKinds, findKind, itemUrl } from "../../cli/kinds.ts";
import { LabFileError, type LabSchema, readLab } from "../../cli/lab-file.ts";
import { FIT_ROWS, fitWidths, ListPrinter } from "../../cli/output.ts";
import { parsePath, select } from "../../cli/select.ts";
import { createApp } from "../../functions/app.ts";
import { documentOptions } from "../../functions/openapi/document.ts";
import { parseConfig } from "../../shared/config.ts";
import type { Deps } from "../../shared/deps.ts";
import { configSchema } from "../../shared/verbs/config/config-schema.ts";

const dir = mkdtempSync(join(tmpdir(), "cli-lab-unit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the kinds table", async () => {
  const spec = await generateSpecs(createApp({ config: parseConfig({}, "0.0.0") } as Deps), documentOptions("0.0.0"));
  const kinds = deriveKinds(spec as Parameters<typeof deriveKinds>[0]);

  it("has every inventory, monitoring and notification kind with its verbs, from the document alone", () => {
    const hardware = findKind(kinds, "hardware")!;
    expect(hardware).toMatchObject({ path: "/api/v1/hardware", itemPath: "/api/v1/hardware/{hardware_id}", nameField: "name" });
    expect(hardware.create && hardware.get && hardware.update && hardware.delete).toBeTruthy();
    expect(hardware.filters).toContain("role");
    expect(itemUrl(hardware, 7)).toBe("/api/v1/hardware/7");
    for (const name of ["services", "monitors", "sinks", "routes", "status-pages", "networks", "sites", "alerts", "maintenance-windows"])
      expect(findKind(kinds, name), name).toBeDefined();
    // Two paths ending alike: the first (shorter, then alphabetical) keeps the short name; a singular is an alias.
    expect(findKind(kinds, "deliveries")!.path).toBe("/api/v1/event-rules/deliveries");
    expect(findKind(kinds, "notifications-deliveries")!.path).toBe("/api/v1/notifications/deliveries");
    expect(findKind(kinds, "service")!.name).toBe("services");
    expect(findKind(kinds, "ipam")!.nameField).toBe("address");
  });

  it("knows which lists stream as NDJSON (the resource engine's) and which only page", () => {
    for (const name of ["hardware", "sites", "ipam", "misc", "vlans"]) expect(findKind(kinds, name)!.streams, name).toBe(true);
    expect(kinds.some((k) => !k.streams)).toBe(true);
  });
});

describe("output", () => {
  it("prints a list chunk by chunk: a table once it has rows to fit its columns to, JSON as one valid array", () => {
    let table = "";
    const p = new ListPrinter((t) => (table += t), {}, ["id", "name"], "name", undefined);
    p.page([{ id: 1, name: "a" }]);
    expect(table).toBe("");
    p.page(Array.from({ length: FIT_ROWS }, (_, i) => ({ id: i + 2, name: i === 0 ? "a-longer-name" : "b" })));
    expect(table.split("\n")[0]).toBe("ID   NAME");
    p.page([{ id: 999, name: "a name longer than the fitted column" }]);
    p.end();
    expect(table.trimEnd().split("\n").length).toBe(FIT_ROWS + 3);
    let short = "";
    const q = new ListPrinter((t) => (short += t), {}, ["id", "name"], "name", undefined);
    q.page([{ id: 1, name: "x" }]);
    q.end();
    expect(short).toBe("ID  NAME\n1   x\n");
    let json = "";
    const j = new ListPrinter((t) => (json += t), { output: "json" }, ["id"], undefined, undefined);
    j.page([{ id: 1 }, { id: 2 }]);
    j.page([{ id: 3 }]);
    j.end();
    expect(JSON.parse(json)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it("shrinks the widest columns to the terminal, never below the header", () => {
    const widths = fitWidths(["id", "name", "notes"], [[1, "pve-1", "x".repeat(100)]], 40);
    expect(widths.reduce((a, b) => a + b, 0) + 4).toBeLessThanOrEqual(40);
    expect(widths[0]).toBe(2);
    expect(fitWidths(["id", "name"], [[1, "pve-1"]], undefined)).toEqual([2, 5]);
  });

  it("selects fields jq-style", () => {
    const v = {
      items: [
        { id: 1, tags: ["a"] },
        { id: 2, tags: [] },
      ],
      "odd key": 3,
    };
    expect(select(v, parsePath(".items[].id"))).toEqual([1, 2]);
    expect(select(v, parsePath('.["odd key"],.items[0].tags[0]'))).toEqual([3, "a"]);
    expect(() => parsePath("items")).toThrow(/must start with "."/);
  });
});

describe("lab files", () => {
  const schema = configSchema() as unknown as LabSchema;
  // No inventory kind has a secret column yet; a kind with one (the schema marks it x-secret) is checked so.
  const withSecret: LabSchema = {
    properties: {
      ...schema.properties,
      sinks: { "x-name-field": "name", items: { properties: { key: {}, name: {}, smtp_password: { "x-secret": true } } } },
    },
  };
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it("refuses a literal secret and a missing variable, naming file and line; fills an env reference", () => {
    const file = write(
      "secret.yaml",
      `sinks:\n  - name: mail\n    smtp_password: hunter2\n  - name: mail2\n    smtp_password: \${env:SMTP_PASSWORD}\n`,
    );
    expect(() => readLab(file, withSecret, {})).toThrow(LabFileError);
    try {
      readLab(file, withSecret, {});
    } catch (e) {
      expect((e as LabFileError).problems).toEqual([
        `${file}:3: sinks.smtp_password: a secret is given as \${env:NAME}, never as a literal`,
        `${file}:5: sinks.smtp_password: the environment variable SMTP_PASSWORD is not set`,
      ]);
    }
    const good = write("good.yaml", `sinks:\n  - name: mail2\n    smtp_password: \${env:SMTP_PASSWORD}\n`);
    expect(readLab(good, withSecret, { SMTP_PASSWORD: "s3cret" }).entries[0]).toMatchObject({
      kind: "sinks",
      key: "mail2",
      fields: { name: "mail2", smtp_password: "s3cret" },
      line: 2,
    });
  });

  it("reads a folder's files as one lab, keys by name or explicit key, references by key", () => {
    const folder = mkdtempSync(join(dir, "folder-"));
    writeFileSync(join(folder, "a.yaml"), "owner: home\nsites:\n  - name: home\n");
    writeFileSync(join(folder, "b.yml"), "hardware:\n  - name: pve-1\n    key: pve\n    site: home\n");
    writeFileSync(join(folder, "notes.txt"), "not a lab file");
    const lab = readLab(folder, schema, {});
    expect(lab.owner).toBe("home");
    expect(lab.entries.map((e) => `${e.kind}/${e.key}`)).toEqual(["sites/home", "hardware/pve"]);
    expect(lab.entries[1]!.fields).toEqual({ name: "pve-1", site: "home" });
  });

  it("checks the monitoring kinds at every depth: secrets in config and headers, <kind>/<key> targets, item references, route keys", () => {
    const file = write(
      "monitoring.yaml",
      [
        "services:",
        "  - name: wiki",
        "monitors:",
        "  - name: web",
        "    check_type: http",
        "    target: services/wiki",
        "    config:",
        "      password: hunter2",
        "      headers:",
        "        authorization: Bearer literal",
        "        Accept: text/html",
        "  - name: odd",
        "    check_type: tcp",
        "    target: gadgets/x",
        "alert_routes:",
        "  - sink: nowhere",
        "status_pages:",
        "  - slug: home",
        "    title: Home",
        "    sections:",
        "      - name: Apps",
        "        items:",
        "          - kind: monitor",
        "            monitor: missing",
        "",
      ].join("\n"),
    );
    try {
      readLab(file, schema, {});
      expect.unreachable();
    } catch (e) {
      expect((e as LabFileError).problems).toEqual([
        `${file}:7: monitors.config.password: a secret is given as \${env:NAME}, never as a literal`,
        `${file}:7: monitors.config.headers.authorization: a secret is given as \${env:NAME}, never as a literal`,
        `${file}:14: monitors.target: "gadgets/x" is not <kind>/<key> with a kind of: hardware, compute_units, external_nodes, services, ip_addresses`,
        `${file}:16: alert_routes entry has no key (this kind has no name)`,
        `${file}:20: status_pages/home: sections[0].items[0].monitor names monitors/missing, which no file describes`,
      ]);
    }
    const good = write(
      "monitoring-good.yaml",
      `services:\n  - name: wiki\nmonitors:\n  - name: web\n    check_type: http\n    target: services/wiki\n    config:\n      headers:\n        Authorization: \${env:WEB_AUTH}\n`,
    );
    expect(readLab(good, schema, { WEB_AUTH: "Bearer t" }).entries[1]!.fields).toEqual({
      name: "web",
      check_type: "http",
      target: "services/wiki",
      config: { headers: { Authorization: "Bearer t" } },
    });
  });

  it("prints an object field's change member by member, a changed secret only as such", () => {
    const text = formatChanges([
      {
        kind: "monitors",
        key: "web",
        id: 3,
        action: "update",
        fields: {
          interval_secs: { from: 60, to: 120 },
          config: {
            from: { url: "http://a/", password: "********", headers: { Accept: "x" } },
            to: { url: "http://b/", password: "********", headers: { Accept: "y" } },
          },
        },
      },
      {
        kind: "notification_sinks",
        key: "mail",
        id: 4,
        action: "update",
        fields: { provider_config: { from: { p: "********" }, to: { p: "******** (new)" } } },
      },
    ]);
    expect(text).toBe(
      "~ monitors/web\n    interval_secs: 60 → 120\n    config.url: http://a/ → http://b/\n    config.headers.Accept: x → y\n~ notification_sinks/mail\n    provider_config.p: ******** → ******** (new)\n",
    );
  });
});
