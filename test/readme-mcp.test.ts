// The README's MCP section, exactly as printed: the mcpHandler example typechecks against the
// shipped types and runs with Node, and the SDK's own Client, whose fetch is that example's
// handler, runs a session through it (list, read, edit, a failure flagged isError). The client
// config's npx line names the bin and flags the packed-bin test (test/mcp/packed-stdio.test.ts) runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readme, root, runSnippet, scratchDir, snippetUnder, typecheck } from './readme-snippets.ts';

const scratch = scratchDir('mcp');
const example = snippetUnder('Over MCP');
afterAll(() => scratch.remove());

// Appended to the example: an MCP client session over its `handle`.
const DRIVE = `
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: (url, init) => handle(new Request(url, init)) });
const client = new Client({ name: 'readme', version: '1.0.0' });
await client.connect(transport);
const text = (r) => r.content[0].text;
const tools = (await client.listTools()).tools.map((t) => t.name);
const read = text(await client.callTool({ name: 'read_file', arguments: { path: '/notes.md' } }));
const edit = await client.callTool({ name: 'edit_file', arguments: { path: '/notes.md', old_string: '# Notes', new_string: '# Plans' } });
const failed = await client.callTool({ name: 'read_file', arguments: { path: '/missing.md' } });
console.log(JSON.stringify({ session: transport.sessionId, tools, read, edit: edit.isError, failed: [failed.isError, text(failed)], file: await backend.readText('/notes.md') }));
await client.close();
`;

it('the mcpHandler example typechecks with strict TypeScript against the shipped types', () => {
  typecheck(scratch.dir, { mcp: example });
});

it('the mcpHandler example serves an MCP session to the SDK client', async () => {
  const out = JSON.parse(await runSnippet(scratch.dir, 'mcp', example + DRIVE)) as Record<string, unknown>;
  expect(out.session).toMatch(/^[0-9a-f-]{36}$/);
  expect(out.tools).toEqual(['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep']);
  expect(out.read).toBe('     1\t# Notes');
  expect(out.edit).toBe(false);
  expect(out.failed).toEqual([true, expect.stringMatching(/^Error: ENOENT: /)]);
  expect(out.file).toBe('# Plans\n');
});

it("the client config runs the package's bin with the SDK beside it, with flags the bin accepts", () => {
  const config = readme.split('\n## Over MCP\n')[1]!.match(/```json\n([\s\S]*?)```/)![1]!;
  const { command, args } = (JSON.parse(config) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers.workspace!;
  expect(command).toBe('npx');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
  expect(args.slice(0, 7)).toEqual(['-y', '-p', pkg.name, '-p', '@modelcontextprotocol/sdk', Object.keys(pkg.bin)[0], 'mcp']);
  expect(args.slice(7).filter((a) => a.startsWith('--'))).toEqual(['--dir', '--save']);
});
