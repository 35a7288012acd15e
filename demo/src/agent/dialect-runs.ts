// The scripted agent's task done with each dialect's own tools: the same rename of
// formatPrice → formatMoney, made the way a model trained on those tools would make it.
// Every call goes through the real tools in the worker and lands in the transcript.
import type { DialectName, Tools } from 'agentvfs';
import type { CallEntry, Transcript } from '../transcript.ts';
import { sleep } from '../ui/dom.ts';
import { finishedWithout, wasDenied } from './denials.ts';
import { NOTHING_RENAMED, renameChangelog } from './scripted.ts';
import { stopIfAsked } from './stopped.ts';
import type { Workspace } from '../workspace.ts';

const OLD = 'formatPrice';
const NEW = 'formatMoney';

export interface DialectRun {
  dialect: DialectName;
  filesChanged: string[];
  /** Writes the person denied ("Ask before writes"): the run goes on without them, as the scripted one does. */
  denied: number;
  ok: boolean;
}

type Call = (tool: string, args: Record<string, unknown>, note: string) => Promise<CallEntry>;

/** How each dialect finds the files that use OLD, and rewrites one of them. */
interface Steps {
  find(call: Call): Promise<string[]>;
  rename(call: Call, path: string, text: string): Promise<CallEntry>;
  changelog(call: Call, content: string): Promise<CallEntry>;
}

const STEPS: Partial<Record<DialectName, Steps>> = {
  anthropic: {
    find: async (call) => {
      // view lists two levels: the root, then /src for the components below it.
      const files = new Set<string>();
      for (const dir of ['/', '/src']) {
        const tree = await call('str_replace_based_edit_tool', { command: 'view', path: dir }, `List ${dir} two levels deep.`);
        for (const line of tree.result.split('\n').slice(2)) if (/\.[a-z]+$/.test(line)) files.add(line);
      }
      const users: string[] = [];
      for (const path of [...files].sort()) {
        const seen = await call('str_replace_based_edit_tool', { command: 'view', path }, `Read ${path}.`);
        if (seen.result.includes(OLD)) users.push(path);
      }
      return users;
    },
    rename: async (call, path, text) => {
      // str_replace needs a unique match: rewrite each line that uses the name, one call per line.
      let last: CallEntry | null = null;
      for (const line of new Set(text.split('\n').filter((l) => l.includes(OLD)))) {
        last = await call(
          'str_replace_based_edit_tool',
          { command: 'str_replace', path, old_str: line, new_str: line.replaceAll(OLD, NEW) },
          `Rename in ${path}.`,
        );
        if (!last.ok) return last;
      }
      return last!;
    },
    changelog: (call, content) => call('str_replace_based_edit_tool', { command: 'create', path: '/CHANGELOG.md', file_text: content }, 'Record the change.'),
  },
  gemini: {
    find: async (call) => {
      const found = await call('grep_search', { pattern: `\\b${OLD}\\b`, names_only: true, case_sensitive: true }, `Find every file using ${OLD}.`);
      return found.result.split('\n').filter((l) => l.startsWith('/'));
    },
    rename: async (call, path, text) => {
      const count = text.split(OLD).length - 1;
      return call(
        'replace',
        { file_path: path, instruction: `Rename ${OLD} to ${NEW}.`, old_string: OLD, new_string: NEW, allow_multiple: count > 1 },
        `Replace all ${count} uses in ${path}.`,
      );
    },
    changelog: (call, content) => call('write_file', { file_path: '/CHANGELOG.md', content }, 'Record the change.'),
  },
  'mcp-filesystem': {
    find: async (call) => {
      const found = await call('search_files', { path: '/', pattern: '**/*' }, 'List every file.');
      const paths = found.result.split('\n').filter((l) => l.startsWith('/'));
      const read = await call('read_multiple_files', { paths }, 'Read them all at once.');
      return paths.filter((p) => read.result.split('\n---\n').some((part) => part.startsWith(`${p}:\n`) && part.includes(OLD)));
    },
    rename: (call, path, text) => {
      const lines = [...new Set(text.split('\n').filter((l) => l.includes(OLD)))];
      const edits = lines.map((l) => ({ oldText: l, newText: l.replaceAll(OLD, NEW) }));
      return call('edit_file', { path, edits }, `All edits to ${path} in one call (all or nothing); the result is a diff.`);
    },
    changelog: (call, content) => call('write_file', { path: '/CHANGELOG.md', content }, 'Record the change.'),
  },
};

/** One V4A patch renaming OLD in every file: a chunk per run of changed lines, with a line of context on each side. */
function renamePatch(files: ReadonlyArray<readonly [string, string]>): string {
  const sections = files.map(([path, text]) => {
    const lines = text.replace(/\n$/, '').split('\n');
    const out: string[] = [];
    let used = -1; // the last line a chunk took as context: Codex finds each chunk after the previous one
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.includes(OLD)) continue;
      let end = i;
      while (end + 1 < lines.length && lines[end + 1]!.includes(OLD)) end++;
      const run = lines.slice(i, end + 1);
      out.push('@@');
      if (i > 0 && i - 1 > used) out.push(` ${lines[i - 1]}`);
      out.push(...run.map((l) => `-${l}`), ...run.map((l) => `+${l.replaceAll(OLD, NEW)}`));
      if (end + 1 < lines.length) out.push(` ${lines[end + 1]}`);
      used = end + 1;
      i = end + 1;
    }
    return `*** Update File: ${path.slice(1)}\n${out.join('\n')}`;
  });
  return `*** Begin Patch\n${sections.join('\n')}\n*** End Patch`;
}

/** `signal`: the Stop button; the run then ends with StoppedError after the call under way. */
export async function runDialectAgent(ws: Workspace, transcript: Transcript, dialect: DialectName, delayMs = 150, signal?: AbortSignal): Promise<DialectRun> {
  const tools: Tools<string> = ws.session(dialect);
  const run: DialectRun = { dialect, filesChanged: [], denied: 0, ok: true };
  /** Files a rename call did not change in full (denied, or failed). */
  const missed: string[] = [];
  const call: Call = async (tool, args, note) => {
    stopIfAsked(signal);
    const entry = await transcript.call(tools, 'agent', tool, args, note, signal);
    if (wasDenied(entry)) run.denied++;
    if (entry.ok) ws.changed();
    stopIfAsked(signal);
    await sleep(delayMs);
    return entry;
  };
  transcript.event('agent', `Task (${dialect} tools): rename ${OLD} to ${NEW} everywhere, then note it in CHANGELOG.md.`);
  // The file texts the agent reasons about (as a model reads them in its own tool results).
  const textOf = (path: string) => ws.backend.readText(path);
  if (dialect === 'openai') {
    // apply_patch is the only tool (Codex reads with its shell): the agent reads the files it patches.
    const paths = [...new Set((await ws.backend.grep(`\\b${OLD}\\b`, { maxMatchesPerFile: 1 })).map((m) => m.path))];
    const files = await Promise.all(paths.map(async (p) => [p, await textOf(p)] as const));
    const patch = await call('apply_patch', { input: renamePatch(files) }, `One patch over all ${files.length} files: all of it applies, or none.`);
    if (patch.ok) run.filesChanged.push(...paths);
    else {
      run.ok = false;
      missed.push(...paths);
    }
    const lines = renameChangelog(run.filesChanged.length, missed)?.replace(/\n$/, '').split('\n');
    const log = lines
      ? await call(
          'apply_patch',
          { input: `*** Begin Patch\n*** Add File: CHANGELOG.md\n${lines.map((l) => `+${l}`).join('\n')}\n*** End Patch` },
          'Record the change.',
        )
      : null;
    if (log === null) transcript.event('agent', NOTHING_RENAMED);
    else if (!log.ok) run.ok = false;
  } else {
    const steps = STEPS[dialect];
    if (steps === undefined) throw new Error(`No scripted run for the ${dialect} dialect.`);
    for (const path of await steps.find(call)) {
      const done = await steps.rename(call, path, await textOf(path));
      if (done.ok) run.filesChanged.push(path);
      else {
        run.ok = false;
        missed.push(path);
      }
    }
    const changelog = renameChangelog(run.filesChanged.length, missed);
    if (changelog === null) transcript.event('agent', NOTHING_RENAMED);
    else if (!(await steps.changelog(call, changelog)).ok) run.ok = false;
  }
  // Done when no use is left (the changelog names both on purpose).
  const left = (await ws.backend.grep(`\\b${OLD}\\b`)).filter((m) => m.path !== '/CHANGELOG.md');
  if (left.length > 0) run.ok = false;
  transcript.event(
    'agent',
    run.ok
      ? `Done with the ${dialect} tools: ${OLD} → ${NEW} in ${run.filesChanged.length} files.`
      : run.denied > 0
        ? finishedWithout(run.denied)
        : `Stopped: a step with the ${dialect} tools failed (see the transcript).`,
  );
  return run;
}
