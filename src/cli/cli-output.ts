/** Where a command writes: `process.stdout` / `process.stderr`, or a capture in tests. */
export interface CliOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}
