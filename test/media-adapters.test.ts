// read_file of a real PNG and a real PDF, through each adapter that carries media, to what the
// model (or the MCP client) receives: the text line plus the file itself, bytes intact.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ToolMessage } from '@langchain/core/messages';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../src/ai/index.ts';
import { createStateBackend, createTools } from '../src/index.ts';
import { langchainTools } from '../src/langchain/index.ts';
import { createMcpServer } from '../src/mcp/index.ts';
import { makePdf, makePng } from './media-fixtures.ts';

const png = makePng(4, 3);
const pdf = makePdf('agentvfs');
const FILES = { '/img/chart.png': png, '/docs/spec.pdf': pdf };
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const bytesOf = (data: string) => new Uint8Array(Buffer.from(data, 'base64'));
const PNG_TEXT = `/img/chart.png: PNG image (image/png), 4x3 pixels, ${png.length} bytes. The image is attached.`;
const PDF_TEXT = `/docs/spec.pdf: PDF document (application/pdf), version 1.7, ${pdf.length} bytes. The document is attached.`;

describe('media parts through the adapters', () => {
  it('AI SDK: the model’s next prompt holds the text and the PNG and PDF as file parts', async () => {
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    const call = (id: string, path: string) => ({ type: 'tool-call' as const, toolCallId: id, toolName: 'read_file', input: JSON.stringify({ path }) });
    const model = new MockLanguageModelV4({
      doGenerate: [
        { content: [call('p', '/img/chart.png'), call('d', '/docs/spec.pdf')], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
        { content: [{ type: 'text', text: 'seen' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      ],
    });
    await generateText({ model, tools: aiSdkTools(createStateBackend({ files: FILES })), prompt: 'look', stopWhen: stepCountIs(3) });
    const prompt = model.doGenerateCalls[1]!.prompt;
    const outputs = prompt.flatMap((m) => (m.role === 'tool' ? m.content : [])).flatMap((p) => (p.type === 'tool-result' ? [p] : []));
    const byId = Object.fromEntries(outputs.map((o) => [o.toolCallId, o.output]));
    expect(byId.p).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: PNG_TEXT },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: base64(png) } },
      ],
    });
    expect(byId.d).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: PDF_TEXT },
        { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: base64(pdf) } },
      ],
    });
  });

  it('LangChain: a ToolMessage with a text block and an image or file block', async () => {
    const readFile = langchainTools(createStateBackend({ files: FILES })).find((t) => t.name === 'read_file')!;
    const image = (await readFile.invoke({ name: 'read_file', args: { path: '/img/chart.png' }, id: 'c1', type: 'tool_call' })) as ToolMessage;
    expect(image.content).toEqual([
      { type: 'text', text: PNG_TEXT },
      { type: 'image', mimeType: 'image/png', data: base64(png) },
    ]);
    const doc = (await readFile.invoke({ name: 'read_file', args: { path: '/docs/spec.pdf' }, id: 'c2', type: 'tool_call' })) as ToolMessage;
    expect(doc.content).toEqual([
      { type: 'text', text: PDF_TEXT },
      { type: 'file', mimeType: 'application/pdf', data: base64(pdf) },
    ]);
  });

  it('MCP: image content for the PNG, an embedded resource for the PDF, read by the SDK’s own client', async () => {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(createStateBackend({ files: FILES })).connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    const image = await client.callTool({ name: 'read_file', arguments: { path: '/img/chart.png' } });
    expect(image).toEqual({
      content: [
        { type: 'text', text: PNG_TEXT },
        { type: 'image', mimeType: 'image/png', data: base64(png) },
      ],
      isError: false,
    });
    const doc = await client.callTool({ name: 'read_file', arguments: { path: '/docs/spec.pdf' } });
    const [, resource] = doc.content as [unknown, { type: string; resource: { uri: string; mimeType: string; blob: string } }];
    expect(resource).toEqual({ type: 'resource', resource: { uri: 'agentvfs:/docs/spec.pdf', mimeType: 'application/pdf', blob: base64(pdf) } });
    expect(bytesOf(resource.resource.blob)).toEqual(pdf);
  });

  it('MCP: the resource names the file read, against the cwd, whatever the dialect calls the argument, with # and ? encoded', async () => {
    const uriOf = async (target: Parameters<typeof createMcpServer>[0], name: string, args: Record<string, unknown>) => {
      const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(target).connect(serverSide);
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(clientSide);
      const result = await client.callTool({ name, arguments: args });
      return (result.content as { resource?: { uri: string } }[])[1]?.resource?.uri;
    };
    const backend = () =>
      createStateBackend({ cwd: '/docs', files: { '/docs/spec.pdf': pdf, '/docs/report#2.pdf': pdf, '/docs/q?.pdf': pdf, '/docs/Q3: summary.pdf': pdf } });
    expect(await uriOf(backend(), 'read_file', { path: 'Q3: summary.pdf' })).toBe('agentvfs:/docs/Q3%3A%20summary.pdf');
    expect(await uriOf(createTools(backend(), { dialect: 'mcp-filesystem' }), 'read_media_file', { path: 'Q3: summary.pdf' })).toBe(
      'agentvfs:/docs/Q3%3A%20summary.pdf',
    );
    expect(await uriOf(backend(), 'read_file', { path: 'spec.pdf' })).toBe('agentvfs:/docs/spec.pdf');
    expect(await uriOf(backend(), 'read_file', { path: 'report#2.pdf' })).toBe('agentvfs:/docs/report%232.pdf');
    expect(await uriOf(backend(), 'read_file', { path: '/docs/q?.pdf' })).toBe('agentvfs:/docs/q%3F.pdf');
    expect(await uriOf(createTools(backend(), { dialect: 'gemini' }), 'read_file', { file_path: '/docs/spec.pdf' })).toBe('agentvfs:/docs/spec.pdf');
    expect(await uriOf(createTools(backend(), { dialect: 'mcp-filesystem' }), 'read_media_file', { path: 'spec.pdf' })).toBe('agentvfs:/docs/spec.pdf');
  });

  it('the parts cross a tool set’s run() as plain data, so every adapter gets the same bytes', async () => {
    const result = await createTools(createStateBackend({ files: FILES })).run('read_file', { path: '/img/chart.png' });
    expect(bytesOf(result.parts![0]!.data)).toEqual(png);
  });
});
