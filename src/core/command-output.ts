/**
 * A progress line a long command keeps current (its stage, counts so far): redrawn in place on a
 * terminal, otherwise written as a line now and then.
 */
export interface ProgressLine {
  /** The line as it stands; `force`: written now even if one was written a moment ago (the last one). */
  update(text: string, force?: boolean): void;
  /** Ends the line on a terminal, so that what the command prints next starts on its own. */
  finish(): void;
}

/** Where a command writes: its results to stdout, notices and progress to stderr. */
export interface CommandOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Progress of a long step on stderr; absent (a library caller, a test): none is shown. */
  progress?: ProgressLine;
}
