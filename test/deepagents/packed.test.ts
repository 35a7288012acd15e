// agentvfs/langchain from the packed package, as a user installs it: with its peers installed
// (linked from this repository's node_modules), a deep agent and a LangChain agent run from
// plain Node, and a strict TypeScript consumer compiles against the shipped types and the
// frameworks' own (test/package/packed.test.ts checks the import without the peer).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
let consumer = '';

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

let out = '';
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'agentvfs-langchain-pack-'));
  const packed = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], root)) as Array<{ filename: string }>;
  consumer = join(out, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--offline', join(out, packed[0]!.filename)], consumer);
  // The peers, as `npm install @langchain/core deepagents langchain` would leave them (their own
  // dependencies resolve from where they really are).
  for (const name of ['@langchain', 'deepagents', 'langchain', 'zod'])
    symlinkSync(realpathSync(join(root, 'node_modules', name)), join(consumer, 'node_modules', name));
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('runs a deep agent over AgentvfsBackend and a LangChain agent over langchainTools from plain Node', () => {
  writeFileSync(
    join(consumer, 'agents.mjs'),
    `import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createDeepAgent } from 'deepagents';
import { createAgent } from 'langchain';
import { createStateBackend } from 'agentvfs';
import { AgentvfsBackend, langchainTools } from 'agentvfs/langchain';
const backend = createStateBackend();
const deep = fakeModel()
  .respondWithTools([{ name: 'write_file', args: { file_path: '/a.md', content: 'deep\\n' }, id: 'd1' }])
  .respond(new AIMessage('ok'));
await createDeepAgent({ model: deep, backend: new AgentvfsBackend(backend) }).invoke({ messages: [new HumanMessage('go')] });
const plain = fakeModel()
  .respondWithTools([{ name: 'write_file', args: { path: '/b.md', content: 'plain\\n' }, id: 'p1' }, { name: 'read_file', args: { path: '/nope' }, id: 'p2' }])
  .respond(new AIMessage('ok'));
const { messages } = await createAgent({ model: plain, tools: langchainTools(backend) }).invoke({ messages: [new HumanMessage('go')] });
console.log(JSON.stringify({ a: await backend.readText('/a.md'), b: await backend.readText('/b.md'), statuses: messages.filter((m) => m.type === 'tool').map((m) => m.status) }));`,
  );
  expect(JSON.parse(run('node', ['agents.mjs'], consumer))).toEqual({ a: 'deep\n', b: 'plain\n', statuses: ['success', 'error'] });
});

it('ships types a strict TypeScript consumer compiles against, with deepagents’ BackendProtocolV2 and createAgent’s tools', () => {
  writeFileSync(
    join(consumer, 'use.ts'),
    `import { createStateBackend, createTools } from 'agentvfs';
import { AgentvfsBackend, langchainTools, type LangchainTool, type DeepagentsReadResult } from 'agentvfs/langchain';
import type { BackendProtocolV2 } from 'deepagents';
import { createAgent } from 'langchain';
import { fakeModel } from '@langchain/core/testing';
const store = createStateBackend();
export const backend: BackendProtocolV2 = new AgentvfsBackend(store);
export const tools: LangchainTool[] = langchainTools(createTools(store), { include: ['read_file', 'grep'] });
export const agent = createAgent({ model: fakeModel(), tools });
export const read = (path: string): Promise<DeepagentsReadResult> => new AgentvfsBackend(store).read(path, 0, 10);
`,
  );
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      // skipLibCheck: @langchain/core's and @langchain/langgraph-sdk's own utils/stream.d.ts fail a lib check without
      // DOM or Node types (with it off, agentvfs/langchain's declarations give no error either).
      compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: true, types: [] },
      files: ['use.ts'],
    }),
  );
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  expect(() => run('node', [tsc, '-p', 'tsconfig.json'], consumer)).not.toThrow();
});
