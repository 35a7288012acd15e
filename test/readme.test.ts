// The README's quickstart must compile (strict TypeScript against the shipped
// types) and run (against the built package, imported by its own name).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const work = join(root, '.readme-check');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const quickstart = readme.split('## Quickstart')[1]!.match(/```ts\n([\s\S]*?)```/)![1]!;

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('README quickstart', () => {
  it('compiles with strict TypeScript against the shipped types', () => {
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'quickstart.mts'), `${quickstart}\nexport {};\n`);
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, lib: ['es2022', 'dom'], types: [] }, files: ['quickstart.mts'] }),
    );
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', work], { encoding: 'utf8' });
  });

  it('runs and prints what the comments say', () => {
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'quickstart.mjs'), quickstart);
    const out = execFileSync(process.execPath, [join(work, 'quickstart.mjs')], { encoding: 'utf8' });
    expect(out).toContain('     1\texport const greeting = "hello";');
    expect(out).toContain('Edited /src/app.ts: 1 replacement.');
    expect(out).toContain('     1\texport const greeting = "hi";');
  });
});
