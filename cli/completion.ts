// Shell completion: `lab completion bash|zsh|fish` prints a script that asks `lab __complete <words>`
// for candidates: commands, kinds (from the server's OpenAPI document, cached) and object names
// (fetched from the server: the first 100 matching the word typed so far).
import { findKind } from "./kinds.ts";
import { pages } from "./resources.ts";
import type { Session } from "./session.ts";

export const SCRIPTS: Record<string, string> = {
  bash: `# lab bash completion: add to ~/.bashrc:  source <(lab completion bash)
_lab_complete() {
  local IFS=$'\\n'
  COMPREPLY=( $(lab __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) )
}
complete -o default -F _lab_complete lab
`,
  zsh: `#compdef lab
# lab zsh completion: add to ~/.zshrc:  source <(lab completion zsh)
_lab_complete() {
  local -a candidates
  candidates=("\${(@f)$(lab __complete "\${words[@]:1:CURRENT-1}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _lab_complete lab
`,
  fish: `# lab fish completion: lab completion fish > ~/.config/fish/completions/lab.fish
complete -c lab -f -a '(lab __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`,
};

const KIND_COMMANDS = new Set(["get", "list", "describe", "create", "edit", "delete"]);
const NAMED = new Set(["get", "describe", "edit", "delete"]);

/** Candidates for the last of `words` (the word being typed), given the ones before it. */
export async function complete(commands: string[], words: string[], session: () => Session): Promise<string[]> {
  const current = words.at(-1) ?? "";
  const before = words.slice(0, -1).filter((w) => !w.startsWith("-"));
  const starts = (xs: string[]) => xs.filter((x) => x.startsWith(current));
  if (before.length === 0) return starts(commands);
  const command = before[0]!;
  if (!KIND_COMMANDS.has(command)) return [];
  const s = session();
  const kinds = await s.kinds();
  if (before.length === 1) return starts(kinds.map((k) => k.name));
  if (before.length === 2 && NAMED.has(command)) {
    const kind = findKind(kinds, before[1]!);
    if (!kind?.nameField) return [];
    const names: string[] = [];
    for await (const items of pages(s, kind, current ? { q: current } : {}, 100))
      names.push(...items.map((i) => String(i[kind.nameField!])));
    return starts(names);
  }
  return [];
}
