// createMcpServer against the SDK's official Client over its in-memory transport: what a client
// lists and gets back for each tool, errors as tool results, and the server left open to more tools.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createStateBackend } from '../backend/state-backend.ts';
import { TOOL_CALLS } from '../calls.ts';
import { createTools } from '../tools/create-tools.ts';
import type { Tools } from '../tools/types.ts';
import type { ApprovalDecision, ApprovalRequest } from '../guard/types.ts';
import { AGENTVFS_VERSION, createMcpServer } from './create-server.ts';
import { mcpHandler } from './handler.ts';

const FILES = { '/src/app.ts': 'export const greeting = "hello";\n', '/README.md': '# demo\n' };

async function connected(server: McpServer): Promise<Client> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ type: string; text?: string }>)[0]?.text;

describe('createMcpServer', () => {
  it('lists the six tools with their descriptions, JSON Schemas and hints from the call table', async () => {
    const client = await connected(createMcpServer(createStateBackend()));
    const { tools } = await client.listTools();
    const definitions = createTools(createStateBackend()).definitions;
    expect(tools.map((t) => t.name)).toEqual(definitions.map((d) => d.name));
    for (const definition of definitions) {
      const listed = tools.find((t) => t.name === definition.name)!;
      expect(listed.description).toBe(definition.description);
      expect(listed.inputSchema).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#', ...definition.parameters });
      const writes = TOOL_CALLS[definition.name].mutates;
      // write_file again with the same content changes nothing more; edit_file may apply again.
      const idempotent = !writes || definition.name === 'write_file';
      expect(listed.annotations).toEqual({ readOnlyHint: !writes, destructiveHint: writes, idempotentHint: idempotent, openWorldHint: false });
    }
    expect(tools.filter((t) => t.annotations?.readOnlyHint === false).map((t) => t.name)).toEqual(['write_file', 'edit_file']);
    expect(client.getServerVersion()).toEqual({ name: 'agentvfs', version: AGENTVFS_VERSION });
  });

  it('answers each tool with exactly the text tools.call gives for the same call', async () => {
    const client = await connected(createMcpServer(createStateBackend({ files: FILES })));
    const twin = createTools(createStateBackend({ files: FILES }));
    const calls: Array<[string, Record<string, unknown>]> = [
      ['ls', { path: '/' }],
      ['read_file', { path: '/src/app.ts' }],
      ['edit_file', { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' }],
      ['write_file', { path: '/docs/new.md', content: 'one\ntwo\n' }],
      ['glob', { pattern: '**/*.md' }],
      ['grep', { pattern: 'greeting|two', output_mode: 'content' }],
    ];
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(false);
      expect(result.content, name).toEqual([{ type: 'text', text: await twin.call(name, args) }]);
    }
  });

  it('include offers only the tools named; descriptions replace the text of those named', async () => {
    const readOnly = ['ls', 'read_file', 'glob', 'grep'] as const;
    const client = await connected(createMcpServer(createStateBackend(), { include: readOnly, descriptions: { grep: 'Search the notes.' } }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...readOnly]);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.find((t) => t.name === 'grep')!.description).toBe('Search the notes.');
    expect(tools.find((t) => t.name === 'glob')!.description).toBe(createTools(createStateBackend()).definitions.find((d) => d.name === 'glob')!.description);
    const write = await client.callTool({ name: 'write_file', arguments: { path: '/a.txt', content: 'x' } });
    expect(write).toMatchObject({ isError: true, content: [{ text: 'MCP error -32602: Tool write_file not found' }] });
    expect(() => createMcpServer(createStateBackend(), { include: ['ls', 'rm' as never] })).toThrow(
      new TypeError('agentvfs/mcp: include names unknown tools ("rm"); the tools are ls, read_file, write_file, edit_file, glob, grep.'),
    );
    expect(() => createMcpServer(createStateBackend(), { descriptions: { rm: 'x' } })).toThrow(/agentvfs\/mcp: descriptions names unknown tools \("rm"\)/);
    expect(() => createMcpServer(createStateBackend(), { permission: {} } as never)).toThrow(
      /^agentvfs\/mcp: createMcpServer has no option "permission" \(did you mean "permissions"\?\)/,
    );
    // A handler's option is not a server's.
    expect(() => createMcpServer(createStateBackend(), { sessions: true } as never)).toThrow(/createMcpServer has no option "sessions"; its options are/);
  });

  it('a write then a read: the file is in the backend and reads back', async () => {
    const backend = createStateBackend();
    const client = await connected(createMcpServer(backend));
    const written = await client.callTool({ name: 'write_file', arguments: { path: 'notes/todo.md', content: 'ship it\n' } });
    expect(textOf(written)).toBe('Created /notes/todo.md (1 line, 8 bytes).');
    expect(await backend.readText('/notes/todo.md')).toBe('ship it\n');
    expect(textOf(await client.callTool({ name: 'read_file', arguments: { path: '/notes/todo.md' } }))).toBe('     1\tship it');
  });

  it('returns tool failures as results flagged isError, with the Error: text and nothing written', async () => {
    const backend = createStateBackend({ files: FILES });
    const client = await connected(createMcpServer(backend));
    const unread = await client.callTool({ name: 'edit_file', arguments: { path: '/src/app.ts', old_string: 'hello', new_string: 'bye' } });
    expect(unread.isError).toBe(true);
    expect(textOf(unread)).toMatch(/^Error: ENOTREAD: \/src\/app\.ts has not been read in this session/);
    // A bad argument is the tools' own EINVAL text, not the SDK's schema complaint nor a protocol error.
    const bad = await client.callTool({ name: 'read_file', arguments: { path: '/src/app.ts', offset: -1 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Error: EINVAL: .*offset/);
    const missing = await client.callTool({ name: 'write_file', arguments: { path: '/x.txt' } });
    expect(textOf(missing)).toMatch(/^Error: EINVAL: .*content/);
    expect(await backend.exists('/x.txt')).toBe(false);
    expect(await backend.readText('/src/app.ts')).toBe(FILES['/src/app.ts']);
  });

  it("answers an unknown tool with the SDK's own isError result", async () => {
    const client = await connected(createMcpServer(createStateBackend()));
    const result = await client.callTool({ name: 'rm', arguments: { path: '/' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'MCP error -32602: Tool rm not found' }], isError: true });
  });

  it('shares the session of a tool set given as the target', async () => {
    const backend = createStateBackend({ files: FILES });
    const tools = createTools(backend);
    await tools.call('read_file', { path: '/src/app.ts' });
    const client = await connected(createMcpServer(tools));
    const edit = await client.callTool({ name: 'edit_file', arguments: { path: '/src/app.ts', old_string: 'hello', new_string: 'bye' } });
    expect(edit.isError).toBe(false);
    expect(await backend.readText('/src/app.ts')).toBe('export const greeting = "bye";\n');
  });

  it("leaves the server open to the user's own tools", async () => {
    const server = createMcpServer(createStateBackend());
    server.registerTool('shout', { description: 'Upper-cases text.', inputSchema: { text: z.string() } }, ({ text }) => ({
      content: [{ type: 'text', text: text.toUpperCase() }],
    }));
    const client = await connected(server);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep', 'shout']);
    expect(tools.at(-1)!.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(textOf(await client.callTool({ name: 'shout', arguments: { text: 'hi' } }))).toBe('HI');
    expect(textOf(await client.callTool({ name: 'ls', arguments: {} }))).toBe('[]');
  });

  it('maps image parts to image content and documents to embedded resources', async () => {
    const backend = createStateBackend();
    const inner = createTools(backend);
    // A tool set (a valid target) whose read_file returns media parts as SPEC §9 describes them.
    const withMedia: Omit<Tools, 'preview'> = {
      definitions: inner.definitions,
      call: inner.call,
      run: async (name, args) =>
        name === 'read_file'
          ? {
              text: '/docs/a b.pdf: PDF document, 4 bytes; see the attached file.',
              isError: false,
              parts: [
                { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
                { type: 'file', mediaType: 'application/pdf', data: 'JVBERg==' },
              ],
              changed: [],
            }
          : inner.run(name, args),
    };
    const client = await connected(createMcpServer(withMedia));
    const result = await client.callTool({ name: 'read_file', arguments: { path: 'a b.pdf' } });
    expect(result.content).toEqual([
      { type: 'text', text: '/docs/a b.pdf: PDF document, 4 bytes; see the attached file.' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'resource', resource: { uri: 'agentvfs:/docs/a%20b.pdf', mimeType: 'application/pdf', blob: 'JVBERg==' } },
    ]);
  });

  // The reference MCP filesystem server's structured-content.test.ts › read_media_file (issue #4029), over
  // MCP with the 'mcp-filesystem' dialect. Where it differs (docs/dialects.md): a text block comes first,
  // audio is a resource, the URI is agentvfs:, and there is no structuredContent (no outputSchema).
  it("mcp-filesystem's read_media_file: an image as image content, anything else as an embedded resource with a percent-encoded URI", async () => {
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    const backend = createStateBackend({
      files: {
        '/t/pixel.png': new Uint8Array(png),
        '/t/clip.mp3': new Uint8Array([0x49, 0x44, 0x33, 0x04]),
        '/t/data.bin': new Uint8Array([0x00, 0x01, 0x02, 0x03, 0xff, 0xfe]),
        '/t/my café.bin': new Uint8Array([0x10, 0x20, 0x30]),
      },
    });
    const client = await connected(createMcpServer(createTools(backend, { dialect: 'mcp-filesystem' })));
    const read = async (path: string) => {
      const result = await client.callTool({ name: 'read_media_file', arguments: { path } });
      expect(result.structuredContent).toBeUndefined();
      return result.content as Array<{ type: string; data?: string; mimeType?: string; resource?: { uri: string; mimeType: string; blob: string } }>;
    };
    const bytes = (base64: string) => [...Buffer.from(base64, 'base64')];
    // › returns type "image" for image files, round-tripping the bytes
    const image = await read('/t/pixel.png');
    expect(image).toHaveLength(2);
    expect(image[0]).toEqual({ type: 'text', text: '/t/pixel.png: image/png, 8 bytes' });
    expect(image[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(bytes(image[1]!.data!)).toEqual(png);
    // › returns type "audio" for audio files (the server: { type: 'audio', mimeType: 'audio/mpeg' })
    const audio = (await read('/t/clip.mp3'))[1]!;
    expect(audio).toMatchObject({ type: 'resource', resource: { uri: 'agentvfs:/t/clip.mp3', mimeType: 'audio/mpeg' } });
    expect(bytes(audio.resource!.blob)).toEqual([0x49, 0x44, 0x33, 0x04]);
    // › returns an embedded resource (never "blob") for non-media binaries, round-tripping the bytes
    const binary = await read('/t/data.bin');
    expect(binary).toHaveLength(2);
    expect(binary[1]).toMatchObject({ type: 'resource', resource: { uri: 'agentvfs:/t/data.bin', mimeType: 'application/octet-stream' } });
    expect(bytes(binary[1]!.resource!.blob)).toEqual([0x00, 0x01, 0x02, 0x03, 0xff, 0xfe]);
    // › percent-encodes spaces and non-ASCII chars in the resource uri
    const uri = (await read('/t/my café.bin'))[1]!.resource!.uri;
    expect(uri).toContain('%20');
    expect(uri).not.toContain(' ');
    expect(uri).toMatch(/%C3%A9|%CC%81/);
    expect(decodeURIComponent(uri.slice('agentvfs:'.length))).toBe('/t/my café.bin');
  });

  it('reports a tool set that rejects as an Error: result, not a protocol error', async () => {
    const inner = createTools(createStateBackend());
    const gone: Tools = { ...inner, run: () => Promise.reject(new Error('the worker is gone; this call and all later ones fail.')) };
    const client = await connected(createMcpServer(gone));
    const result = await client.callTool({ name: 'ls', arguments: {} });
    // One period, and no advice to retry what the message says fails.
    expect(result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Error: unexpected failure: the worker is gone; this call and all later ones fail. Whether the call changed anything is not known: look before trying it again.',
        },
      ],
    });
  });

  it('refuses a target that is neither a backend nor a tool set, naming what it got', () => {
    expect(() => createMcpServer({ files: {} } as never)).toThrow(TypeError);
    expect(() => createMcpServer({ files: {} } as never)).toThrow(
      /^agentvfs\/mcp: expected a backend \(createStateBackend\(\), or connect\(worker\) from agentvfs\/client\) or a tool set from createTools\(\); got an object without the backend methods/,
    );
    expect(() => createMcpServer(undefined as never)).toThrow(/got undefined/);
  });

  it('names the current package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(AGENTVFS_VERSION).toBe(pkg.version);
  });
});

describe('createMcpServer and mcpHandler with permissions, approve and onEvent', () => {
  it('guard the tool session made over a backend, as the other adapters do', async () => {
    const backend = createStateBackend({ files: { '/pub/a.md': 'a\n', '/secret/key': 'k\n' } });
    const events: string[] = [];
    const client = await connected(
      createMcpServer(backend, { permissions: { read: ['/pub/**'], write: ['/pub/**'] }, onEvent: (e) => events.push(`${e.tool} ${e.ok}`) }),
    );
    expect(textOf(await client.callTool({ name: 'read_file', arguments: { path: '/secret/key' } }))).toMatch(
      /^Error: EACCES: \/secret\/key is outside the paths/,
    );
    expect(textOf(await client.callTool({ name: 'write_file', arguments: { path: '/pub/b.md', content: 'b\n' } }))).toBe(
      'Created /pub/b.md (1 line, 2 bytes).',
    );
    expect(events).toEqual(['read_file false', 'write_file true']);
    await client.close();
  });

  it('a call the client cancels (notifications/cancelled) while its write waits for approval writes nothing', async () => {
    const backend = createStateBackend();
    let answer!: (decision: ApprovalDecision) => void;
    let asked: ApprovalRequest | undefined;
    const events: string[] = [];
    const client = await connected(
      createMcpServer(backend, {
        approve: (request) => ((asked = request), new Promise((resolve) => (answer = resolve))),
        onEvent: (e) => events.push(`${e.tool} ${e.code}`),
      }),
    );
    const controller = new AbortController();
    const call = client.callTool({ name: 'write_file', arguments: { path: '/x.md', content: 'x\n' } }, undefined, { signal: controller.signal });
    while (asked === undefined) await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort('the user pressed Stop');
    await expect(call).rejects.toThrow();
    // The server hears of it over the transport: the question's signal aborts, and its late answer writes nothing.
    while (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked.signal?.aborted).toBe(true);
    expect(events).toEqual(['write_file ECANCELED']);
    answer({ allow: true });
    expect((await client.callTool({ name: 'ls', arguments: {} })).isError).toBeFalsy();
    expect(await backend.exists('/x.md')).toBe(false);
    await client.close();
  });

  it('mcpHandler with sessions: each session is guarded, and approve is asked', async () => {
    const backend = createStateBackend({ files: { '/a.md': 'a\n' } });
    const asked: string[] = [];
    const handle = mcpHandler(backend, {
      sessions: true,
      enableJsonResponse: true,
      approve: (r) => (asked.push(r.path), { allow: false, reason: 'not now' }),
    });
    const post = (body: string, id?: string) =>
      handle(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
            ...(id ? { 'mcp-session-id': id } : {}),
          },
          body,
        }),
      );
    const init = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    );
    const id = init.headers.get('mcp-session-id')!;
    await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), id);
    const call = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write_file', arguments: { path: '/b.md', content: 'b\n' } } }),
      id,
    );
    const text = ((await call.json()) as { result: { content: Array<{ text: string }> } }).result.content[0]!.text;
    expect(text).toBe(
      'Error: EDENIED: The user denied the write of /b.md: "not now". The file is unchanged. Take the reason into account before trying again.',
    );
    expect(asked).toEqual(['/b.md']);
    expect(await backend.exists('/b.md')).toBe(false);
  });
});

describe('createMcpServer over the mcp-filesystem dialect', () => {
  it("gives each tool the reference server's hints", async () => {
    const client = await connected(createMcpServer(createTools(createStateBackend(), { dialect: 'mcp-filesystem' })));
    const hints = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.annotations]));
    // modelcontextprotocol/servers src/filesystem/index.ts: the writers' hints (every reader is readOnlyHint: true).
    expect(hints.write_file).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false });
    expect(hints.edit_file).toMatchObject({ readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false });
    expect(hints.create_directory).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false });
    expect(hints.move_file).toMatchObject({ readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false });
    for (const name of [
      'read_text_file',
      'read_multiple_files',
      'read_media_file',
      'list_directory',
      'list_directory_with_sizes',
      'directory_tree',
      'search_files',
      'get_file_info',
    ]) {
      expect(hints[name], name).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    }
    await client.close();
  });
});
