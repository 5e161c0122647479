import { spawn } from 'node:child_process';
import { repoRoot } from './report';

/** Runs a child process, forwarding its stderr; resolves with its exit code or a timeout. */
export function runChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  captureStdout: boolean,
) {
  return new Promise<{
    code: number | null;
    stdout: string;
    stderrTail: string;
    timedOut: boolean;
  }>(done => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', captureStdout ? 'pipe' : 'inherit', 'pipe'],
    });
    let stdout = '';
    let stderrTail = '';
    let timedOut = false;
    child.stdout?.on('data', chunk => {
      stdout += chunk;
    });
    child.stderr!.on('data', chunk => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk).slice(-2_000);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', code => {
      clearTimeout(timer);
      done({ code, stdout, stderrTail, timedOut });
    });
  });
}
