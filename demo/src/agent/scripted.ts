// The offline scripted agent: renames formatPrice → formatMoney across the sample project
// through the real tools in the worker, the way a model would: glob, grep, read, edit.
// Halfway through, a teammate saves one of the files; the agent's edit is refused as
// stale (ESTALE), and it recovers by re-reading the file and editing again.
import { plural, sleep } from '../ui/dom.ts';
import { finishedWithout, wasDenied } from './denials.ts';
import { stopIfAsked } from './stopped.ts';
import type { Transcript, CallEntry } from '../transcript.ts';
import type { Workspace } from '../workspace.ts';

export const TASK = 'Rename the function formatPrice to formatMoney everywhere in the project, then note it in CHANGELOG.md.';
const OLD = 'formatPrice';
const NEW = 'formatMoney';
/** The file a teammate saves while the agent is working on it. */
const TEAMMATE_FILE = '/src/checkout.ts';
const TEAMMATE_ADDITION = `
export function refund(cents: number): string {
  return \`Refunded \${formatPrice(cents)}\`;
}
`;

export interface AgentRun {
  filesChanged: string[];
  staleRecoveries: number;
  /** Writes the person denied ("Ask before writes"): the run goes on without them. */
  denied: number;
  ok: boolean;
}

/** `signal`: the Stop button; the run then ends with StoppedError after the call under way. */
export async function runScriptedAgent(ws: Workspace, transcript: Transcript, delayMs = 250, signal?: AbortSignal): Promise<AgentRun> {
  const tools = ws.session(); // a fresh agent session: it has read nothing yet
  const run: AgentRun = { filesChanged: [], staleRecoveries: 0, denied: 0, ok: true };
  /** Files with an edit that did not land (denied, or failed): not renamed, whatever else was written there. */
  const missed: string[] = [];
  const call = async (tool: string, args: Record<string, unknown>, note?: string): Promise<CallEntry> => {
    stopIfAsked(signal);
    const entry = await transcript.call(tools, 'agent', tool, args, note, signal);
    if (wasDenied(entry)) run.denied++;
    if (tool === 'write_file' || tool === 'edit_file') ws.changed();
    stopIfAsked(signal);
    await sleep(delayMs);
    return entry;
  };

  transcript.event('agent', `Task: ${TASK}`);
  await call('ls', { path: '/' }, 'Look at the project layout.');
  await call('glob', { pattern: '**/*.{ts,tsx}' }, 'Find the TypeScript sources.');
  const uses = await call('grep', { pattern: `\\b${OLD}\\b`, output_mode: 'content' }, `Find every use of ${OLD}.`);
  const files = [...new Set([...uses.result.matchAll(/^(\/[^:\n]+):\d+:/gm)].map((m) => m[1]!))];
  // The definition first, then its users in path order.
  files.sort((a, b) => Number(b.endsWith('/utils/format.ts')) - Number(a.endsWith('/utils/format.ts')) || a.localeCompare(b));

  for (const path of files) {
    await call('read_file', { path }, `Read ${path} before editing it.`);
    if (path === TEAMMATE_FILE) {
      const current = await ws.backend.readText(path);
      await ws.backend.writeFile(path, current + TEAMMATE_ADDITION);
      transcript.event(
        'outside',
        `A teammate saved ${path} (added refund()) after the agent read it. Not a tool call: a write from outside the agent's session.`,
        `teammate saved ${path}`,
      );
      ws.changed();
      await sleep(delayMs);
    }
    const edits: Array<[Record<string, unknown>, string]> = path.endsWith('/utils/format.ts')
      ? [
          [{ old_string: `export function ${OLD}(`, new_string: `export function ${NEW}(` }, 'Rename the definition.'],
          [{ old_string: `${OLD}(1999)`, new_string: `${NEW}(1999)` }, 'Fix the doc comment too (no re-read needed after my own edit).'],
        ]
      : [[{ old_string: OLD, new_string: NEW, replace_all: true }, `Replace every ${OLD} in ${path}.`]];
    for (const [edit, note] of edits) {
      let result = await call('edit_file', { path, ...edit }, note);
      for (let attempt = 0; !result.ok && /^Error: (ESTALE|ENOTREAD)\b/.test(result.result) && attempt < 2; attempt++) {
        run.staleRecoveries++;
        await call('read_file', { path }, 'The file changed since I read it: re-read it, then redo the edit on the current version.');
        result = await call('edit_file', { path, ...edit }, 'Redo the edit on the current version.');
      }
      if (!result.ok) {
        // The rest of this file's rename goes with the edit that did not land: with the definition
        // kept (denied), renaming its doc comment would leave the two out of step, and the
        // changelog names the file as still using the old name.
        run.ok = false;
        missed.push(path);
        break;
      }
      if (!run.filesChanged.includes(path)) run.filesChanged.push(path);
    }
  }

  const check = await call('grep', { pattern: `\\b${OLD}\\b`, output_mode: 'count' }, `Check that no ${OLD} is left.`);
  if (!/^No matches/.test(check.result)) run.ok = false;
  const changelog = renameChangelog(files.filter((path) => !missed.includes(path)).length, missed);
  if (changelog === null) transcript.event('agent', NOTHING_RENAMED);
  else if (!(await call('write_file', { path: '/CHANGELOG.md', content: changelog }, 'Record the change.')).ok) run.ok = false;
  transcript.event(
    'agent',
    run.ok
      ? `Done: ${OLD} → ${NEW} in ${run.filesChanged.length} files; ${run.staleRecoveries} stale edit recovered by re-reading.`
      : run.denied > 0
        ? finishedWithout(run.denied)
        : 'Stopped: a step failed (see the transcript). The workspace may have been changed since the sample was loaded; Reset and run again.',
  );
  return run;
}

/**
 * The CHANGELOG.md a rename run writes, saying only what was written: `renamed` files took every
 * edit of the rename; in the `missed` ones an edit did not land (the person denied it, or it
 * failed). Null when no file was renamed: there is nothing to note.
 */
export function renameChangelog(renamed: number, missed: readonly string[]): string | null {
  if (renamed === 0) return null;
  const where =
    missed.length === 0
      ? `(${plural(renamed, 'file')})`
      : `in ${renamed} of ${plural(renamed + missed.length, 'file')}; ${missed.join(', ')} still use${missed.length === 1 ? 's' : ''} \`${OLD}\``;
  return `# Changelog\n\n## Unreleased\n\n- Renamed \`${OLD}\` to \`${NEW}\` ${where}.\n`;
}

export const NOTHING_RENAMED = `No file was renamed, so there is nothing to note: CHANGELOG.md is not written.`;
