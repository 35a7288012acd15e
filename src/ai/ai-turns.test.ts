/**
 * Which calls came in one model response (src/ai/response-turns.ts), against the real SDK's loop:
 * they never count each other's reads, and nothing else is held against a call (tool call ids a
 * provider reuses, an app that keeps one messages array, approvals answered in a later request).
 */
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { createStateBackend, createTools } from '../index.ts';
import { aiSdkTools } from './index.ts';
import { textResponse, toolCallsResponse } from '../../test/ai/mock-responses.ts';

const calls = toolCallsResponse;
const done = textResponse('Done.');

describe('tool call ids a provider reuses across responses', () => {
  it('writes approved together (needsApproval) after reads with the same ids land', async () => {
    const { MockLanguageModelV4 } = await import('ai/test');
    const backend = createStateBackend({ files: { '/a.txt': 'a\n', '/b.txt': 'b\n' } });
    const model = new MockLanguageModelV4({
      doGenerate: [
        calls(['call_0', 'read_file', { path: '/a.txt' }], ['call_1', 'read_file', { path: '/b.txt' }]),
        calls(['call_0', 'write_file', { path: '/a.txt', content: 'A\n' }], ['call_1', 'write_file', { path: '/b.txt', content: 'B\n' }]),
        done,
      ],
    });
    const tools = aiSdkTools(backend, { needsApproval: true });
    const messages: ModelMessage[] = [{ role: 'user', content: 'x' }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    messages.push(...first.response.messages);
    const requests = first.content.filter((p) => p.type === 'tool-approval-request') as { approvalId: string }[];
    expect(requests).toHaveLength(2);
    messages.push({ role: 'tool', content: requests.map((r) => ({ type: 'tool-approval-response' as const, approvalId: r.approvalId, approved: true })) });
    await generateText({ model, tools, messages, stopWhen: stepCountIs(1) });
    expect(await backend.readText('/a.txt')).toBe('A\n');
    expect(await backend.readText('/b.txt')).toBe('B\n');
  });

  it('a read in an earlier response counts for a later write', async () => {
    const { MockLanguageModelV4 } = await import('ai/test');
    const backend = createStateBackend({ files: { '/a.txt': 'one\n', '/b.txt': 'b\n' } });
    const model = new MockLanguageModelV4({
      doGenerate: [
        calls(['call_0', 'read_file', { path: '/a.txt' }], ['call_1', 'read_file', { path: '/b.txt' }]),
        calls(['call_0', 'write_file', { path: '/a.txt', content: 'two\n' }]),
        done,
      ],
    });
    const result = await generateText({ model, tools: aiSdkTools(backend), stopWhen: stepCountIs(5), prompt: 'x' });
    const write = result.steps[1]!.toolResults[0]!;
    expect((write.output as { text: string }).text).toMatch(/^Updated/);
    expect(await backend.readText('/a.txt')).toBe('two\n');
  });

  it('a provider that numbers calls per response, the model reading then writing two files, again and again', async () => {
    const { MockLanguageModelV4 } = await import('ai/test');
    const backend = createStateBackend({ files: { '/a.txt': 'a\n', '/b.txt': 'b\n' } });
    const reads = calls(['call_0', 'read_file', { path: '/a.txt' }], ['call_1', 'read_file', { path: '/b.txt' }]);
    const writes = calls(['call_0', 'write_file', { path: '/a.txt', content: 'A\n' }], ['call_1', 'write_file', { path: '/b.txt', content: 'B\n' }]);
    const model = new MockLanguageModelV4({ doGenerate: [reads, writes, reads, writes, reads, writes, done] });
    const result = await generateText({ model, tools: aiSdkTools(backend), stopWhen: stepCountIs(8), prompt: 'x' });
    const writeResults = result.steps.filter((_, i) => i % 2 === 1).flatMap((s) => s.toolResults.map((r) => (r.output as { text: string }).text.slice(0, 40)));
    expect(writeResults).toEqual(
      Array(6)
        .fill('Updated')
        .map((w, i) => expect.stringMatching(new RegExp(`^${w} /${i % 2 ? 'b' : 'a'}\\.txt`))),
    );
    expect(await backend.readText('/a.txt')).toBe('A\n');
    expect(await backend.readText('/b.txt')).toBe('B\n');
  });
});

const patch = (id: string, from: string, to: string) =>
  toolCallsResponse([id, 'apply_patch', { input: `*** Begin Patch\n*** Update File: /a.txt\n@@\n-${from}\n+${to}\n*** End Patch` }]);
const answer = textResponse('ok');

it('apply_patch approved later, the app keeping one messages array (the SDK docs pattern): a refusal that showed the file counts for the next patch', async () => {
  const { MockLanguageModelV4 } = await import('ai/test');
  const backend = createStateBackend({ files: { '/a.txt': 'one\n' } });
  const tools = aiSdkTools(createTools(backend, { dialect: 'openai' }), { needsApproval: true });
  const model = new MockLanguageModelV4({ doGenerate: [patch('c1', 'one', 'two'), answer, patch('c2', 'two', 'TWO'), patch('c3', 'three', 'THREE'), answer] });
  const messages: ModelMessage[] = [{ role: 'user', content: 'x' }];
  const turn = async () => {
    const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(2) });
    messages.push(...result.responseMessages);
    return result;
  };
  const approve = () => {
    const last = messages.at(-1)!;
    const req = (last.content as { type: string; approvalId?: string }[]).find((p) => p.type === 'tool-approval-request')!;
    messages.push({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: req.approvalId!, approved: true }] });
  };
  await turn();
  approve();
  await turn();
  expect(await backend.readText('/a.txt')).toBe('two\n');
  await backend.writeFile('/a.txt', 'three\n'); // someone else
  messages.push({ role: 'user', content: 'again' });
  await turn(); // c2 asks
  approve();
  await turn(); // c2 runs: ESTALE, shows "three"; the model sends c3 against it, which asks
  approve();
  await turn(); // c3 runs
  const outputs = messages
    .flatMap((m) => (m.role === 'tool' ? (m.content as { type: string; toolCallId?: string; output?: { value?: unknown } }[]) : []))
    .filter((p) => p.type === 'tool-result')
    .map((p) => `${p.toolCallId}: ${JSON.stringify(p.output?.value).slice(0, 90)}`);
  expect(outputs.some((o) => o.startsWith('c2: ') && o.includes('ESTALE'))).toBe(true);
  expect(await backend.readText('/a.txt')).toBe('THREE\n');
});
