// A snapshot taken in one Node process restores byte for byte in another.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';

const cli = join(import.meta.dirname, 'snapshot-cli.mjs');

it('restores in another process exactly: bytes, unicode paths, timestamps, empty directories', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentvfs-snap-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'state.avfs');
  execFileSync(process.execPath, [cli, 'take', file]);
  const tree = JSON.parse(execFileSync(process.execPath, [cli, 'dump', file], { encoding: 'utf8' })) as Record<
    string,
    { bytes: string; mtimeMs: number } | boolean
  >;
  expect(tree['/src/ünï.ts']).toEqual({ bytes: [...new TextEncoder().encode('export const x = "crlf";\r\n')].join(','), mtimeMs: 1_700_000_000_123.5 });
  expect(tree['/bin/all.bin']).toEqual({ bytes: Array.from({ length: 256 }, (_, i) => i).join(','), mtimeMs: 1_700_000_000_123.5 });
  expect(tree['/empty/dir']).toBe(true);
});
