// The `lab` command line (docs/cli.md): a client of the public HTTP API with an API token, built on
// commander. bin/lab.mjs runs it. Every failure ends here: one line on stderr and the exit code of
// exit.ts (2 usage, 3 refused by the server, 4 server error, 5 network).
import { Command, CommanderError, Option } from "commander";
import { applyCommand, diffCommand, exportLabCommand } from "./apply.ts";
import { contextsList, contextsUse, loginCommand, logoutCommand, tokenCreateCommand, whoamiCommand } from "./account.ts";
import { complete, SCRIPTS } from "./completion.ts";
import { CliError, EXIT } from "./exit.ts";
import {
  alertsAckCommand,
  backupCreateCommand,
  discoveryScanCommand,
  exportInventoryCommand,
  importInventoryCommand,
  monitorsStatusCommand,
} from "./operations.ts";
import { FORMATS, printObject } from "./output.ts";
import { createCommand, deleteCommand, describeCommand, editCommand, getCommand, listCommand } from "./resources.ts";
import { Session } from "./session.ts";

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function buildProgram(): Command {
  const program = new Command("lab")
    .description("Command-line client of the infrastructure control plane (docs/cli.md)")
    .option("--context <name>", "the server to talk to (see `lab contexts`); default: the current one")
    .addOption(new Option("-o, --output <format>", "output format").choices(FORMATS))
    .option("--jq <path>", "print only these fields (.name, .items[].id, .a,.b)")
    .option("--columns <list>", "table columns, comma-separated")
    .showSuggestionAfterError()
    .exitOverride();

  const session = (cmd: Command) => Session.open(cmd.optsWithGlobals());
  const globals = (cmd: Command) => cmd.optsWithGlobals();

  program
    .command("login <url>")
    .description("save a server and an API token as a context (file mode 0600); --browser signs in in the browser")
    .option("--token <token>", "the API token (or LAB_TOKEN)")
    .option("--token-stdin", "read the token from standard input")
    .option("--browser", "sign in in the browser and approve a new API token there (RFC 8252 loopback redirect with PKCE)")
    .addOption(new Option("--web", "the same as --browser").hideHelp())
    .option("--no-open", "with --browser: only print the URL, do not start a browser")
    .option("--label <label>", "with --browser: the new token's label (default: lab CLI on <this host>)")
    .option("--timeout <seconds>", "with --browser: how long to wait for the approval (default: 300)")
    .option("--name <name>", "the context's name (default: the URL's host:port)")
    .action((url, opts) => loginCommand(url, opts));
  program
    .command("logout [context]")
    .description("forget a context (default: the current one)")
    .action((name) => logoutCommand(name));
  const contexts = program.command("contexts").description("list the saved servers; `contexts use NAME` switches");
  contexts.command("list", { isDefault: true }).action((_o, cmd) => contextsList(globals(cmd)));
  contexts
    .command("use <name>")
    .description("make a context the current one")
    .action((name) => contextsUse(name));
  program
    .command("whoami")
    .description("who the current token belongs to, and its scopes")
    .action((_o, cmd) => whoamiCommand(session(cmd), globals(cmd)));
  program
    .command("kinds")
    .description("the resource kinds the server offers (from its OpenAPI document)")
    .action(async (_o, cmd) => {
      const kinds = await session(cmd).kinds(true);
      const g = globals(cmd);
      if (g.output === "json" || g.output === "yaml" || g.jq) return printObject((t) => process.stdout.write(t), kinds, g);
      for (const k of kinds) {
        const verbs = ["list", k.get && "get", k.create && "create", (k.update || k.replace) && "edit", k.delete && "delete"].filter(
          Boolean,
        );
        process.stdout.write(`${k.name.padEnd(36)} ${k.path.padEnd(44)} ${verbs.join(" ")}\n`);
      }
    });

  const listOptions = (c: Command) =>
    c
      .option("-l, --filter <field=value>", "a filter the list route takes (repeatable)", collect)
      .option("-q, --q <text>", "the list's search")
      .option("--sort <field>", "sort by this field")
      .option("--desc", "sort descending")
      .option("--limit <n>", "at most this many objects");
  listOptions(program.command("list <kind>").description("list objects of a kind (every page, streamed)")).action((kind, _o, cmd) =>
    listCommand(session(cmd), kind, globals(cmd)),
  );
  listOptions(program.command("get <kind> [name-or-id]").description("one object (or the list when no name is given)")).action(
    (kind, ref, _o, cmd) => getCommand(session(cmd), kind, ref, globals(cmd)),
  );
  program
    .command("describe <kind> <name-or-id>")
    .description("every field of one object")
    .action((kind, ref, _o, cmd) => describeCommand(session(cmd), kind, ref, globals(cmd)));
  program
    .command("create <kind>")
    .description("create objects from a YAML or JSON file")
    .requiredOption("-f, --file <file>", "the file (- for standard input): one object, a list, or several YAML documents")
    .action((kind, _o, cmd) => createCommand(session(cmd), kind, globals(cmd)));
  program
    .command("edit <kind> <name-or-id>")
    .description("change an object in $EDITOR; written with If-Match, so a concurrent change is a 412")
    .action((kind, ref, _o, cmd) => editCommand(session(cmd), kind, ref, globals(cmd)));
  program
    .command("delete <kind> <name-or-id...>")
    .description("delete objects; where the API asks for a confirmation, asks first (or --yes)")
    .option("-y, --yes", "confirm high-impact deletes without asking")
    .action((kind, refs, _o, cmd) => deleteCommand(session(cmd), kind, refs, globals(cmd)));

  const monitors = program.command("monitors").description("monitor views");
  monitors
    .command("status")
    .description("monitor states; live (redrawn from the event stream) on a terminal")
    .option("--watch", "keep the view live")
    .option("--no-watch", "print once and exit")
    .action((_o, cmd) => monitorsStatusCommand(session(cmd), globals(cmd)));
  const alerts = program.command("alerts").description("alerts");
  alerts
    .command("ack <alert-id>")
    .description("acknowledge an alert's incident (someone has it in hand)")
    .option("--note <text>", "a note (at most 500 characters)")
    .option("--undo", "remove the acknowledgement")
    .action((id, _o, cmd) => alertsAckCommand(session(cmd), id, globals(cmd)));
  const discovery = program.command("discovery").description("network discovery");
  discovery
    .command("scan <cidr>")
    .description("start a scan; --wait follows it to its end with a progress bar")
    .option("--wait", "wait for the scan to end")
    .option("--type <scan-type>", "a scan type (repeatable): icmp, tcp, dns, arp, ...", collect)
    .option("--ports <preset>", "tcp ports preset: common, top100, web, infrastructure")
    .action((cidr, _o, cmd) => discoveryScanCommand(session(cmd), cidr, globals(cmd)));
  const backup = program.command("backup").description("database backups");
  backup
    .command("create")
    .description("take and verify a backup now")
    .option("--download [file]", "also download the archive (default: its own file name; - for standard output)")
    .action((_o, cmd) => backupCreateCommand(session(cmd), globals(cmd)));
  program
    .command("export")
    .description("-o json (default): the admin export document; -o yaml: the inventory as a lab file (apply's format)")
    .option("--file <file>", "write to this file (default: standard output)")
    .option("--owner <owner>", "with -o yaml: the owner whose recorded keys name the objects")
    .action((_o, cmd) => {
      const g = globals(cmd);
      if (g.output === "yaml") return exportLabCommand(session(cmd), g);
      if (g.output && g.output !== "json") throw new CliError(`export -o ${g.output}: use json or yaml`, EXIT.usage);
      return exportInventoryCommand(session(cmd), g);
    });
  program
    .command("apply")
    .description("make the objects of a lab file (or a folder of them) true, in one server-side transaction")
    .requiredOption("-f, --file <path>", "a lab file or a folder of them")
    .option("--prune", "also delete the objects this file's owner created earlier and no longer describes")
    .action((_o, cmd) => applyCommand(session(cmd), globals(cmd) as Parameters<typeof applyCommand>[1]));
  program
    .command("diff")
    .description("what apply would create, change (field by field) and, with --prune, delete")
    .requiredOption("-f, --file <path>", "a lab file or a folder of them")
    .option("--prune", "show the deletes --prune would make")
    .action((_o, cmd) => diffCommand(session(cmd), globals(cmd) as Parameters<typeof diffCommand>[1]));
  program
    .command("import")
    .description("merge an export document into the inventory (admin import)")
    .requiredOption("-f, --file <file>", "the export document (JSON or YAML)")
    .option("--dry-run", "show what would change; change nothing")
    .option("--wipe", "replace the inventory (asks for confirmation; needs a verified backup)")
    .option("-y, --yes", "confirm --wipe without asking")
    .action((_o, cmd) => importInventoryCommand(session(cmd), globals(cmd)));
  const token = program.command("token").description("API tokens");
  token
    .command("create")
    .description("create an API token for yourself (shown once)")
    .requiredOption("--label <label>", "what the token is for")
    .option("--scope <scope>", "a scope (repeatable; default: your own)", collect)
    .option("--expires-in-days <n>", "expiry in days")
    .action((_o, cmd) => tokenCreateCommand(session(cmd), globals(cmd) as Parameters<typeof tokenCreateCommand>[1]));
  program
    .command("completion <shell>")
    .description("print the completion script for bash, zsh or fish")
    .action((shell: string) => {
      const script = SCRIPTS[shell];
      if (!script) throw new CliError(`completion ${shell}: use bash, zsh or fish`, EXIT.usage);
      process.stdout.write(script);
    });
  program.command("__complete [words...]", { hidden: true }).action(async (words: string[] = [], _o, cmd) => {
    const names = program.commands.filter((c) => !c.name().startsWith("_")).map((c) => c.name());
    try {
      for (const c of await complete(names, words.length ? words : [""], () => session(cmd))) process.stdout.write(`${c}\n`);
    } catch {
      // Completion never prints an error into the shell's line.
    }
  });
  for (const c of program.commands) c.exitOverride();
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander has printed the usage problem (or the help) itself.
      return e.exitCode === 0 || e.code === "commander.helpDisplayed" || e.code === "commander.version" ? EXIT.ok : EXIT.usage;
    }
    if (e instanceof CliError) {
      process.stderr.write(`lab: ${e.message}\n`);
      return e.exitCode;
    }
    process.stderr.write(`lab: ${(e as Error).message ?? String(e)}\n`);
    return EXIT.failure;
  }
}
