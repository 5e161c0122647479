import { runCli } from '../../src/cli/run-cli';

/** Runs `runCli` in this process with its output captured: `{ code, stdout, stderr }`. */
export async function runCliCaptured(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: text => (stdout += text) },
    stderr: { write: text => (stderr += text) },
  });
  return { code, stdout, stderr };
}
