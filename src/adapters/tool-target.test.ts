import { describe, expect, it } from 'vitest';
import { createStateBackend, createTools } from '../index.ts';
import { toTools } from './tool-target.ts';

describe('toTools', () => {
  it('gives a backend a new session and a tool set back as it is', async () => {
    const backend = createStateBackend({ files: { '/a.txt': 'one\n' } });
    const tools = toTools(backend, 'x');
    expect(await tools.call('read_file', { path: '/a.txt' })).toBe('     1\tone');
    expect(toTools(backend, 'x')).not.toBe(tools);
    expect(toTools(tools, 'x')).toBe(tools);
  });

  it.each([
    [undefined, 'got undefined'],
    [null, 'got null'],
    ['/work', 'got the string "/work"'],
    [[], 'got an array'],
    [{ readText() {} }, 'got an object without the backend methods resolvePath, ls, stat, …'],
    [new Map(), 'got a Map without the backend methods'],
    [{ definitions: [], call() {} }, 'got a tool set without run()'],
  ])('refuses %o with a TypeError that says what it accepts', (target, got) => {
    const attempt = () => toTools(target as never, 'ai');
    expect(attempt).toThrow(TypeError);
    expect(attempt).toThrow('agentvfs/ai: expected a backend (createStateBackend(), or connect(worker) from agentvfs/client) or a tool set from createTools()');
    expect(attempt).toThrow(got);
  });

  it('accepts a tool set made with options, keeping them', () => {
    const tools = createTools(createStateBackend(), { descriptions: { ls: 'List it.' } });
    expect(toTools(tools, 'x').definitions.find((d) => d.name === 'ls')?.description).toBe('List it.');
  });
});
