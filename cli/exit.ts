// The CLI's exit codes (docs/cli.md, "Exit codes") and the one error type every command throws. A
// failure prints one line on stderr: what went wrong, the API's `detail` and, for a 422, the field names.

export const EXIT = {
  /** Everything worked. */
  ok: 0,
  /** Something the CLI itself could not do (a file it could not write, an editor that failed). */
  failure: 1,
  /** Usage: an unknown command, kind, flag or option value; a file refused before anything was sent. */
  usage: 2,
  /** The server refused the request (4xx): not found, forbidden, invalid, precondition failed, conflict. */
  refused: 3,
  /** The server failed (5xx). */
  server: 4,
  /** The server could not be reached (connection refused, DNS, TLS, timeout). */
  network: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly status: number | undefined;
  readonly body: unknown;
  constructor(message: string, exitCode: ExitCode, status?: number, body?: unknown) {
    super(message);
    this.exitCode = exitCode;
    this.status = status;
    this.body = body;
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);

/** The exit code for an HTTP status the server answered with (only called for >= 400). */
export function exitForStatus(status: number): ExitCode {
  return status >= 500 ? EXIT.server : EXIT.refused;
}
