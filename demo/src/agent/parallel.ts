// The parallel-subagents run: two subagents each get a fork of the workspace (copy-on-write, in
// the worker) and work at the same time: one renames formatPrice → formatMoney, one adds tests
// and notes them in the README. Their forks are merged back one after the other. Both touched
// the same README line, so the second merge reports a conflict and changes nothing; the tester
// takes the workspace's changes into its fork (fork.merge(workspace), with markers), keeps both
// sides of that line, and its merge goes through.
import type { Backend, MergeResult } from 'agentvfs';
import { sleep } from '../ui/dom.ts';
import { wasDenied } from './denials.ts';
import type { Transcript } from '../transcript.ts';
import type { Workspace } from '../workspace.ts';

export const PARALLEL_TASK =
  'Two subagents at once, each in its own fork: one renames formatPrice to formatMoney, one adds tests for formatQuantity. Then merge both back.';

const README = '/README.md';
const README_LINE = 'Prices are integers in cents and are shown with `formatPrice` from `src/utils/format.ts`.';
const TEST_NOTE = ' Quantities are covered by `test/quantity.test.ts`.';
const TEST_FILE = '/test/quantity.test.ts';
const MUTATING = new Set(['write_file', 'edit_file']);
const TEST_SOURCE = `import { describe, expect, it } from 'vitest';
import { formatQuantity } from '../src/utils/format';

describe('formatQuantity', () => {
  it('says "1 item" for one', () => expect(formatQuantity(1)).toBe('1 item'));
  it('counts the rest in items', () => expect(formatQuantity(3)).toBe('3 items'));
});
`;

/** Where each subagent is, and the files it changed in its fork (its own writes that landed). */
export interface ForkProgress {
  name: 'renamer' | 'tester';
  state: 'working' | 'done' | 'merged' | 'conflict';
  /** Written by the subagent's own calls: not what its fork took in from the workspace to settle a conflict. */
  changed: string[];
}

export interface ParallelRun {
  ok: boolean;
  /** Writes the person denied ("Ask before writes"). */
  denied: number;
  merged: string[];
  conflicts: MergeResult['conflicts'];
}

export async function runParallelSubagents(
  ws: Workspace,
  transcript: Transcript,
  onProgress: (progress: ForkProgress) => void,
  delayMs = 120,
): Promise<ParallelRun> {
  const main = ws.backend;
  transcript.event('agent', `Task: ${PARALLEL_TASK}`);
  const renamer = (await main.fork()) as Backend & { close?: () => void };
  const tester = (await main.fork()) as Backend & { close?: () => void };
  transcript.event('agent', 'Forked the workspace twice (copy-on-write, in the worker): one fork per subagent.');
  const progress = {
    renamer: { name: 'renamer', state: 'working', changed: [] } as ForkProgress,
    tester: { name: 'tester', state: 'working', changed: [] } as ForkProgress,
  };
  onProgress(progress.renamer);
  onProgress(progress.tester);
  const run: ParallelRun = { ok: true, denied: 0, merged: [], conflicts: [] };

  const agent = (fork: Backend, p: ForkProgress) => {
    // A subagent's writes wait for the person too when "Ask before writes" is on (what the merges
    // bring into the workspace is then only what the person allowed in the forks), and are
    // audited as the main agent's are: the transcript shows each decision.
    const tools = ws.forkSession(fork);
    return async (tool: string, args: Record<string, unknown>, note: string) => {
      const entry = await transcript.call(tools, 'subagent', tool, args, `[${p.name}] ${note}`);
      if (!entry.ok) run.ok = false;
      if (wasDenied(entry)) run.denied++;
      const path = args.path;
      if (entry.ok && MUTATING.has(tool) && typeof path === 'string' && !p.changed.includes(path)) {
        p.changed.push(path);
        onProgress({ ...p, changed: [...p.changed] });
      }
      await sleep(delayMs);
      return entry;
    };
  };

  const renaming = (async () => {
    const call = agent(renamer, progress.renamer);
    const uses = await call('grep', { pattern: '\\bformatPrice\\b', output_mode: 'files_with_matches' }, 'Find every file that uses formatPrice.');
    for (const path of uses.result.split('\n').filter((l) => l.startsWith('/'))) {
      await call('read_file', { path }, `Read ${path}.`);
      await call('edit_file', { path, old_string: 'formatPrice', new_string: 'formatMoney', replace_all: true }, `Rename in ${path}.`);
    }
    progress.renamer.state = 'done';
    onProgress({ ...progress.renamer });
  })();
  const testing = (async () => {
    const call = agent(tester, progress.tester);
    await call('write_file', { path: TEST_FILE, content: TEST_SOURCE }, 'Add tests for formatQuantity.');
    await call('read_file', { path: README }, 'Read the README to mention the tests.');
    await call('edit_file', { path: README, old_string: README_LINE, new_string: README_LINE + TEST_NOTE }, 'Note the tests in the README.');
    progress.tester.state = 'done';
    onProgress({ ...progress.tester });
  })();
  await Promise.all([renaming, testing]);

  const merge = async (fork: Backend, p: ForkProgress): Promise<MergeResult> => {
    const result = await main.merge(fork);
    if (result.conflicts.length === 0) {
      run.merged.push(...result.merged.filter((path) => !run.merged.includes(path)));
      p.state = 'merged';
      transcript.event('agent', `Merged the ${p.name}'s fork: ${result.merged.join(', ')}.`, `merge ${p.name}`);
    } else {
      p.state = 'conflict';
      run.conflicts.push(...result.conflicts);
      const list = result.conflicts.map((c) => `${c.path} (${c.kind}): ${c.detail}`).join(' ');
      transcript.event('outside', `Merging the ${p.name}'s fork stopped on a conflict, and changed nothing. ${list}`);
    }
    onProgress({ ...p, changed: [...p.changed] });
    return result;
  };

  await merge(renamer, progress.renamer);
  const first = await merge(tester, progress.tester);
  if (first.conflicts.length > 0) {
    // Settled where the work is: the tester takes in the workspace's changes (markers where both
    // changed), puts its note on the renamed line, and merges again.
    const call = agent(tester, progress.tester);
    const update = await tester.merge(ws.worker, { conflicts: 'markers' });
    transcript.event(
      'agent',
      `The tester took the workspace's changes into its fork (${update.merged.length} paths; markers in ${update.conflicts.map((c) => c.path).join(', ')}).`,
    );
    const marked = await call('read_file', { path: README }, 'Read the README with the conflict markers.');
    const block = /<<<<<<< ours\n[\s\S]*?>>>>>>> theirs\n/.exec(await tester.readText(README))?.[0];
    const renamedLine = README_LINE.replace('formatPrice', 'formatMoney');
    if (!marked.ok || !block) run.ok = false;
    else await call('edit_file', { path: README, old_string: block, new_string: `${renamedLine}${TEST_NOTE}\n` }, 'Keep both: the renamed line, with my note.');
    const second = await merge(tester, progress.tester);
    if (second.conflicts.length > 0) run.ok = false;
  }
  renamer.close?.();
  tester.close?.();
  return run;
}
