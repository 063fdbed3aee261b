// Asking the person at the terminal. Without a terminal there is nobody to ask: the command refuses
// with a usage error naming the flag that answers for them.
import { createInterface } from "node:readline/promises";
import { usageError } from "./exit.ts";

export async function confirm(question: string, flag = "--yes"): Promise<boolean> {
  if (!process.stdin.isTTY) throw usageError(`${question.replace(/\s*\[y\/N\]\s*$/, "")}: no terminal to ask; pass ${flag}`);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
