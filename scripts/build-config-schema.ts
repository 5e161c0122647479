/**
 * Writes schema/guardrails-config.schema.json from the config zod schemas.
 * Run after changing an option of a guardrail type: `npx tsx scripts/build-config-schema.ts`
 * (the config test fails when the file is out of date).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { guardrailsConfigJsonSchema } from '../src/config/config-json-schema';

const target = fileURLToPath(new URL('../schema/guardrails-config.schema.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(guardrailsConfigJsonSchema(), null, 2)}\n`);
// Format like the rest of the repository so `biome check .` stays clean.
execFileSync('npx', ['biome', 'format', '--write', target], { stdio: 'ignore' });
console.log(`wrote ${target}`);
