// No import cycles in src/, type-only imports included: a cycle makes modules hard to
// change one at a time, and a public type defined in an implementation file tends to start one.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const madgeCli = createRequire(import.meta.url).resolve('madge/bin/cli.js');

/** The cycles madge finds under `dir` (paths relative to it). */
function cycles(dir: string): string[][] {
  const run = spawnSync(process.execPath, [madgeCli, '--circular', '--json', '--extensions', 'ts', dir], { cwd: root, encoding: 'utf8' });
  // madge exits 1 when it finds a cycle; anything else than a JSON list is a failure to run it.
  expect(run.status === 0 || run.status === 1, run.stderr).toBe(true);
  return JSON.parse(run.stdout) as string[][];
}

describe('import graph', () => {
  it('madge counts a cycle made only of type imports', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentvfs-cycles-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport interface A { b?: B }\n");
      writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport interface B { a?: A }\n");
      expect(cycles(dir)).toEqual([['a.ts', 'b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('src/ has no import cycles', () => {
    expect(cycles('src')).toEqual([]);
  }, 60_000);
});
