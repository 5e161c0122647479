#!/usr/bin/env node
// The tagger's model for `pii`'s tagged types, without resolving the package by name (src/ner/index.ts).
import '../ner';
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
