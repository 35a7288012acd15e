// The diff of one change a call would make (an approval question, a preview), unified or side by
// side. Text that is no patch (a rename, a directory, a binary file) is shown as notes.
import { diffRow, parsePatch } from './diff-view.ts';
import { h } from './dom.ts';

type Line = ReturnType<typeof parsePatch>[number]['lines'][number];

/** Unified: the request's diff as it is, +/− lines coloured; text that is no patch (a rename, a binary file) as a note. */
export function renderUnified(diff: string): HTMLElement {
  if (diff === '') return h('p', { class: 'placeholder' }, 'No change: the proposed content is what the file holds now.');
  const files = parsePatch(diff);
  if (files.length === 0) return h('div', { class: 'diff-lines' }, ...diff.split('\n').map((text) => diffRow({ type: 'note', text })));
  return h('div', { class: 'diff-lines' }, ...files.flatMap((f) => f.lines.map(diffRow)));
}

/** Side by side: old on the left, new on the right; a run of − lines faces the + lines that replace it. */
export function renderSplit(diff: string): HTMLElement {
  const files = parsePatch(diff);
  if (files.length === 0) return renderUnified(diff);
  const rows: HTMLElement[] = [];
  const cell = (line: Line | undefined, side: 'old' | 'new') =>
    line
      ? h(
          'div',
          { class: `sl ${line.type}` },
          h('span', { class: 'ln', 'aria-hidden': 'true' }, (side === 'old' ? line.old : line.new) ?? ''),
          h('span', { class: 'text' }, line.text),
        )
      : h('div', { class: 'sl empty' });
  for (const file of files) {
    const lines = file.lines;
    for (let i = 0; i < lines.length; ) {
      const line = lines[i]!;
      if (line.type === 'del' || line.type === 'add') {
        const dels: Line[] = [];
        const adds: Line[] = [];
        while (lines[i]?.type === 'del') dels.push(lines[i++]!);
        while (lines[i]?.type === 'add') adds.push(lines[i++]!);
        for (let k = 0; k < Math.max(dels.length, adds.length); k++) rows.push(h('div', { class: 'split-row' }, cell(dels[k], 'old'), cell(adds[k], 'new')));
        continue;
      }
      rows.push(
        line.type === 'ctx'
          ? h('div', { class: 'split-row' }, cell(line, 'old'), cell(line, 'new'))
          : h('div', { class: `split-row wide ${line.type}` }, h('span', { class: 'text' }, line.text)),
      );
      i++;
    }
  }
  return h('div', { class: 'split-lines' }, ...rows);
}
