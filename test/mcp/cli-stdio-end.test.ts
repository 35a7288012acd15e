// The built `agentvfs mcp` over stdio when its input ends or its output goes away: every request
// read before stdin ended is answered and saved; a closed stdout stops it like an ended session.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
import { readWorkspaceFile } from '../../src/persist/node/index.ts';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'agentvfs-cli-end-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const line = (message: object) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
const HELLO =
  line({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } }) +
  line({ method: 'notifications/initialized' });

function run(args: string[], input: string, { closeStdout = false } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (closeStdout && stdout.includes('"id":1')) child.stdout.destroy(); // the client stops reading after the handshake
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (!closeStdout) child.stdin.end(input);
    else {
      child.stdin.write(HELLO);
      child.stdout.once('close', () => child.stdin.end(input));
    }
  });
}

describe('agentvfs mcp over stdio, at the end of its input', () => {
  it('answers and saves every request read before stdin ended', async () => {
    const save = join(dir, 'ended.log');
    const write = line({ id: 2, method: 'tools/call', params: { name: 'write_file', arguments: { path: '/a.txt', content: 'A\n' } } });
    const { code, stdout } = await run(['mcp', '--save', save], HELLO + write);
    expect(code).toBe(0);
    const answers = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result: { content: Array<{ text: string }> } });
    expect(answers.find((a) => a.id === 2)?.result.content[0]?.text).toBe('Created /a.txt (1 line, 2 bytes).');
    const saved = createStateBackend();
    await saved.restore(readWorkspaceFile(save)!);
    expect(await saved.readText('/a.txt')).toBe('A\n');
  });

  it('writes every answer out before it exits, large ones too (a pipe takes them a piece at a time)', async () => {
    const project = join(dir, 'big');
    mkdirSync(project);
    writeFileSync(join(project, 'big.txt'), `${'x'.repeat(79)}\n`.repeat(1_000)); // 80 KB: each read answers with more than a pipe holds
    const reads = Array.from({ length: 40 }, (_, i) =>
      line({ id: 10 + i, method: 'tools/call', params: { name: 'read_file', arguments: { path: '/big.txt' } } }),
    ).join('');
    const { code, stdout } = await run(['mcp', '--dir', project], HELLO + reads);
    expect(code).toBe(0);
    const ids = stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids.sort((a, b) => a - b)).toEqual([1, ...Array.from({ length: 40 }, (_, i) => 10 + i)]);
  });

  it('stops cleanly, without a stack trace, when the client closes its end of stdout', async () => {
    const save = join(dir, 'gone.log');
    const write = line({ id: 2, method: 'tools/call', params: { name: 'write_file', arguments: { path: '/b.txt', content: 'B\n' } } });
    const { code, stderr } = await run(['mcp', '--save', save], write, { closeStdout: true });
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at /);
    expect(code).toBe(0);
    const saved = createStateBackend();
    await saved.restore(readWorkspaceFile(save)!);
    expect(await saved.readText('/b.txt')).toBe('B\n'); // saved before its answer was (not) written
  });
});
