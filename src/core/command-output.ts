/** Where a command writes: its results to stdout, notices and progress to stderr. */
export interface CommandOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}
