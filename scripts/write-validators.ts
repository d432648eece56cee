// Writes generated/schemas.json, validators.js and validators.d.ts from the model, so the tests
// can import the generated validators before the full `generate` command exists.
// Usage: npx tsx scripts/write-validators.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api } from '../spec/api.ts';
import { generateValidators } from '../generator/validators.ts';

const generatedDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'generated');
mkdirSync(generatedDir, { recursive: true });
for (const file of generateValidators(api)) {
  writeFileSync(join(generatedDir, file.path), file.contents);
  console.log(`wrote generated/${file.path}`);
}
