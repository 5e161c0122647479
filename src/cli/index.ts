#!/usr/bin/env node
import { runCli } from './run-cli';

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then(
  code => {
    process.exitCode = code;
  },
  error => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
