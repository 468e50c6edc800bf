/** Where a command writes; injected so tests can capture output without spawning a process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The folder relative paths are read from. */
  readonly cwd: string;
  /**
   * For a command that runs until stopped (`serve`): settles when the user asks it to stop (Ctrl+C or SIGTERM
   * in the CLI). Only a command that calls it changes what Ctrl+C does.
   */
  readonly untilStopped?: () => Promise<void>;
  /**
   * One status line on stderr that each call rewrites in place (null clears it): given only when stderr is a
   * terminal, so a log or a pipe never receives progress.
   */
  readonly progress?: (text: string | null) => void;
  /** The command line asked for JSON (`--json`): errors are then a JSON document on stdout, not text on stderr. */
  readonly jsonErrors?: boolean;
}

/** Exit codes are the CLI's public contract. */
export const EXIT = {
  /** A packet was emitted (or the command succeeded). */
  ok: 0,
  /** Invalid input or usage; the error is on stderr. */
  invalid: 1,
  /** The compiler failed closed: no packet (or, for the drill, the receipt is blocked). */
  failClosed: 2,
  /** Fire drill only: the receipt is stale and must be recompiled before work continues. */
  recompileRequired: 3,
  /** `test` only: a case's expectations do not hold (the suites were read and run). */
  expectationsFailed: 4,
  /** The database could not be reached or refused the connection: nothing was read or written. */
  databaseUnreachable: 5,
  /** `audit` only: the database and the reference evaluator decide some record differently. */
  auditDisagreed: 6,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface CliCommand {
  readonly name: string;
  /** One line for `--help`. */
  readonly summary: string;
  /** The usage block printed by `<command> --help` and after a usage error. */
  readonly usage: string;
  run(args: readonly string[], io: CliIo): Promise<ExitCode>;
}
