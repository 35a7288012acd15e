// The built core must load where there is no Node: no `node:*` or bare built-in
// import may remain in dist, and it must not touch Node-only globals at load.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dist = join(import.meta.dirname, '../../dist');
const BUILTINS = ['assert', 'buffer', 'child_process', 'crypto', 'events', 'fs', 'os', 'path', 'process', 'stream', 'url', 'util', 'worker_threads'];

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => join(e.parentPath, e.name));
}

/** `files` and every file of dist they import, statically or dynamically. */
function withImports(files: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) visit(join(dirname(file), spec!));
  };
  for (const file of files) visit(file);
  return seen;
}

describe('built core is runtime-neutral', () => {
  it('has no node: or bare built-in imports', () => {
    // dist/cli.js is the `agentvfs` command, dist/persist-node.js the file store and
    // dist/persist.node.js agentvfs/persist as Node loads it: Node-only by nature (scripts/build.mjs),
    // and so are the chunks only they import. Every other entry, and every file it imports, must be neutral.
    const nodeOnly = ['cli.js', 'persist-node.js', 'persist.node.js'].map((name) => join(dist, name));
    const entries = readdirSync(dist)
      .filter((name) => name.endsWith('.js'))
      .map((name) => join(dist, name))
      .filter((file) => !nodeOnly.includes(file));
    const files = [...withImports(entries)];
    expect(files.length).toBeGreaterThan(entries.length); // the walk found the chunks
    const unreached = jsFiles(dist).filter((file) => !files.includes(file) && !withImports(nodeOnly).has(file));
    expect(unreached, 'every built file is reached from an entry').toEqual([]);
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      expect(code, file).not.toMatch(/["']node:[a-z_/]+["']/);
      for (const name of BUILTINS) {
        expect(code, `${file} imports ${name}`).not.toMatch(new RegExp(`(?:from|import|require)\\s*\\(?\\s*["']${name}["']`));
      }
    }
  });

  it('evaluates and works in a bare JS realm without process, Buffer, require or DOM', () => {
    const out = execFileSync(process.execPath, ['--experimental-vm-modules', '--no-warnings', join(import.meta.dirname, 'bare-realm-runner.mjs')], {
      encoding: 'utf8',
    });
    const result = JSON.parse(out) as { globalsSeen: string; results: string[]; restored: string; code: string };
    expect(result.globalsSeen).toBe('undefined,undefined,undefined,undefined,undefined');
    expect(result.results).toEqual(['     1\tx\n     2\ty', '/a/b.txt:1', 'No matches found for "(a+)+$" in /.']);
    expect(result.restored).toBe('x\ny\n');
    expect(result.code).toBe('ENOENT');
  });
});
