// Renders backend.diff(...) readably: the added / removed / modified paths, then the unified
// diff (`patch`) one file at a time, with old/new line numbers and +/− line colouring.
import type { CheckpointDiff } from 'agentvfs';
import { h } from './dom.ts';

/** Lines rendered at most (a diff of the 50 MB corpus is ~1.4 M lines). */
const MAX_LINES = 4000;

type Line = { type: 'hunk' | 'add' | 'del' | 'ctx' | 'note'; text: string; old?: number; new?: number };
interface FilePatch {
  path: string;
  kind: 'added' | 'removed' | 'modified' | 'binary';
  lines: Line[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
/** A name of a patch as a path: git's quotes undone, its tab after a name with a space and its a/ or b/ dropped. */
const stripPrefix = (p: string) => `/${unquote(p.replace(/\t$/, '')).replace(/^[ab]\//, '')}`;

const ESCAPED: Record<string, string> = { a: '\x07', b: '\b', t: '\t', n: '\n', v: '\v', f: '\f', r: '\r', '"': '"', '\\': '\\' };

/** A name git wrote in quotes ("a/tab\there"), as it is. */
function unquote(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"')) return name;
  return name.slice(1, -1).replace(/\\([0-7]{3}|.)/g, (_, c: string) => (c.length === 3 ? String.fromCharCode(Number.parseInt(c, 8)) : (ESCAPED[c] ?? c)));
}

/** The two names of a `diff --git` line: quoted ones as git wrote them, bare ones (which may hold spaces) by halves. */
function gitNames(line: string): [string, string] {
  const names = line.slice('diff --git '.length);
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*")$/.exec(names) ?? /^("(?:[^"\\]|\\.)*") (\S+)$/.exec(names);
  if (quoted) return [quoted[1]!, quoted[2]!];
  const half = (names.length - 1) / 2;
  return [names.slice(0, half), names.slice(half + 1)];
}

/** Splits a unified diff into files; hunk line counts decide what is content (a removed "--- x" line stays a line). */
export function parsePatch(patch: string): FilePatch[] {
  const files: FilePatch[] = [];
  const lines = patch === '' ? [] : patch.replace(/\n$/, '').split('\n'); // a patch ends with a line break
  let file: FilePatch | null = null;
  let preamble: string[] = [];
  let oldLeft = 0;
  let newLeft = 0;
  let oldNo = 0;
  let newNo = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (file && (oldLeft > 0 || newLeft > 0)) {
      const mark = line[0];
      if (mark === '+') file.lines.push({ type: 'add', text: line.slice(1), new: newNo++ }), newLeft--;
      else if (mark === '-') file.lines.push({ type: 'del', text: line.slice(1), old: oldNo++ }), oldLeft--;
      else if (mark === '\\') file.lines.push({ type: 'note', text: line });
      else file.lines.push({ type: 'ctx', text: line.slice(1), old: oldNo++, new: newNo++ }), oldLeft--, newLeft--;
      continue;
    }
    const hunk = HUNK.exec(line);
    if (file && hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[3]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      if (oldNo === 0) oldNo = 1;
      if (newNo === 0) newNo = 1;
      file.lines.push({ type: 'hunk', text: line });
    } else if (line.startsWith('diff --git ')) {
      // git's header: the ---/+++ lines after it start the file, but an empty file created or removed has none.
      const made = lines[i + 1]?.startsWith('new file mode') ? 'added' : lines[i + 1]?.startsWith('deleted file mode') ? 'removed' : null;
      if (made !== null) i++;
      file = null;
      if (made !== null && !lines[i + 1]?.startsWith('--- ')) {
        const path = stripPrefix(gitNames(line)[1]);
        file = { path, kind: made, lines: [...preamble, `(an empty file, ${made})`].map((text) => ({ type: 'note', text })) };
        preamble = [];
        files.push(file);
      }
    } else if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      const from = line.slice(4);
      const to = lines[++i]!.slice(4);
      const kind = from === '/dev/null' ? 'added' : to === '/dev/null' ? 'removed' : 'modified';
      // A line before the headers (an approval's "Removes the byte order mark …") is the file's first note.
      file = { path: stripPrefix(kind === 'removed' ? from : to), kind, lines: preamble.map((text) => ({ type: 'note', text })) };
      preamble = [];
      files.push(file);
    } else if (line.startsWith('Binary files ') || line.startsWith('Files ')) {
      // A file named, not shown: binary, not UTF-8, or too large to diff.
      const m = /^(?:Binary )?[Ff]iles (.+) and (.+) differ/.exec(line);
      const path = m ? stripPrefix(m[2] === '/dev/null' ? m[1]! : m[2]!) : line;
      file = { path, kind: 'binary', lines: [{ type: 'note', text: line }] };
      files.push(file);
    } else if (file) {
      file.lines.push({ type: 'note', text: line });
    } else {
      preamble.push(line);
    }
  }
  return files;
}

const SIGN: Record<Line['type'], string> = { add: '+', del: '−', ctx: ' ', hunk: '', note: '' };

/** One line of a diff: old and new line numbers, its sign and its text, coloured by its type. */
export const diffRow = (line: Line): HTMLElement =>
  h(
    'div',
    { class: `dl ${line.type}` },
    h('span', { class: 'ln', 'aria-hidden': 'true' }, line.old ?? ''),
    h('span', { class: 'ln', 'aria-hidden': 'true' }, line.new ?? ''),
    h('span', { class: 'sign', 'aria-hidden': 'true' }, SIGN[line.type]),
    h('span', { class: 'text' }, line.text),
  );

/** The summary (paths, each opens its file) and the patch, or one line saying nothing changed. */
export function renderDiff(diff: CheckpointDiff, onOpen: (path: string) => void): HTMLElement {
  const total = diff.added.length + diff.removed.length + diff.modified.length;
  if (total === 0) return h('p', { class: 'placeholder', 'data-testid': 'diff-empty' }, 'No changes between these two points.');
  const pathList = (kind: 'added' | 'removed' | 'modified', paths: string[], mark: string) =>
    paths
      .slice(0, 200)
      .map((path) =>
        h(
          'li',
          { class: `diff-path ${kind}`, dataset: { path, kind } },
          h('span', { class: 'mark', 'aria-hidden': 'true' }, mark),
          kind === 'removed'
            ? h('span', { class: 'mono' }, path)
            : h('button', { type: 'button', class: 'link mono', title: `Open ${path}`, onclick: () => onOpen(path) }, path),
          h('span', { class: 'sr-only' }, ` ${kind}`),
        ),
      );
  const unlisted = Math.max(0, diff.added.length - 200) + Math.max(0, diff.removed.length - 200) + Math.max(0, diff.modified.length - 200);
  const more = unlisted > 0 ? h('li', { class: 'muted' }, `… and ${unlisted.toLocaleString()} more`) : null;
  const summary = h(
    'div',
    { class: 'diff-summary', 'data-testid': 'diff-summary' },
    h(
      'p',
      { class: 'diff-counts' },
      h('span', { class: 'added' }, `${diff.added.length} added`),
      ' · ',
      h('span', { class: 'removed' }, `${diff.removed.length} removed`),
      ' · ',
      h('span', { class: 'modified' }, `${diff.modified.length} modified`),
    ),
    h(
      'ul',
      { class: 'diff-paths' },
      ...pathList('added', diff.added, 'A'),
      ...pathList('removed', diff.removed, 'D'),
      ...pathList('modified', diff.modified, 'M'),
      more,
    ),
  );

  const blocks: HTMLElement[] = [];
  let shown = 0;
  let hidden = 0;
  for (const file of parsePatch(diff.patch)) {
    if (shown >= MAX_LINES) {
      hidden += file.lines.length;
      continue;
    }
    const rows: HTMLElement[] = [];
    for (const line of file.lines) {
      if (shown >= MAX_LINES) {
        hidden++;
        continue;
      }
      shown++;
      rows.push(diffRow(line));
    }
    blocks.push(
      h(
        'section',
        { class: 'diff-file', dataset: { path: file.path, kind: file.kind }, 'aria-label': `${file.kind} ${file.path}` },
        h('h3', { class: 'diff-file-head' }, h('span', { class: `chip ${file.kind}` }, file.kind), h('span', { class: 'mono' }, file.path)),
        h('div', { class: 'diff-lines' }, ...rows),
      ),
    );
  }
  if (hidden > 0)
    blocks.push(
      h('p', { class: 'placeholder' }, `${hidden.toLocaleString()} more diff lines not shown (the page renders the first ${MAX_LINES.toLocaleString()}).`),
    );
  return h('div', { class: 'diff', 'data-testid': 'diff' }, summary, ...blocks);
}
