// examples/session.mjs (`npm run demo:node`) against the built package: it runs to the end, its
// scripted agent is refused where the story says (an edit before a read, a stale edit), and the
// rename it tells of is complete.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('examples/session.mjs renames sumAll across the project, recovering from the refusals it shows', () => {
  const run = spawnSync(process.execPath, [join(import.meta.dirname, '../examples/session.mjs')], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  expect(run.status, run.stderr).toBe(0);
  const out = run.stdout;
  expect(out).toMatch(/Error: ENOTREAD: \/src\/math\.ts/);
  expect(out).toMatch(/Error: ESTALE: \/src\/report\.ts/);
  expect(out).toContain('No matches found for "sumAll" in /.');
  expect(out).toMatch(/snapshot: \d+ bytes; restoring it into a fresh backend…\n\/CHANGELOG\.md\n\/README\.md\n\/src\/report\.ts\n\/src\/math\.ts\n$/);
});
