// Shows one file's current text with line numbers, re-read whenever its version changes.
// The "File | Changes" switch in the header shows instead what changed between two
// checkpoints (or from a checkpoint to now): backend.diff(from, to?), rendered by diff-view.ts.
import { isVfsError } from 'agentvfs';
import type { Timeline } from '../timeline.ts';
import type { Workspace } from '../workspace.ts';
import { renderDiff } from './diff-view.ts';
import { clear, clockTime, formatBytes, h } from './dom.ts';

type Mode = 'file' | 'changes';
const NOW = 'now';

const MAX_LINES = 5000;

/** What "write #N" means: the backend's version stamp, one counter for the whole workspace. */
const VERSION_HELP =
  "write #N is this file's version: each write in the workspace takes the next number of one counter shared by all files and folders, " +
  'so a file can start at any number and a number is never reused. A tool session remembers the number it read; ' +
  'an edit after the number changed is refused with ESTALE (read the file again first).';

export class FileViewer {
  readonly el: HTMLElement;
  #title: HTMLElement;
  #meta: HTMLElement;
  #body: HTMLElement;
  #path: string | null = null;
  #version = -1;
  #token = 0;
  #mode: Mode = 'file';
  #modeInputs: Record<Mode, HTMLInputElement>;
  #compare: HTMLElement;
  #from: HTMLSelectElement;
  #to: HTMLSelectElement;
  #changes: HTMLElement;
  #fileBody: HTMLElement;

  constructor(
    private ws: Workspace,
    private timeline: Timeline,
  ) {
    this.#title = h('h2', { class: 'path', id: 'viewer-title' }, 'No file open');
    this.#meta = h('span', { class: 'muted', 'data-testid': 'viewer-meta' });
    this.#fileBody = h('div', { class: 'file-body' });
    this.#from = h('select', { id: 'diff-from', 'data-testid': 'diff-from', onchange: () => void this.#loadChanges() });
    this.#to = h('select', { id: 'diff-to', 'data-testid': 'diff-to', onchange: () => void this.#loadChanges() });
    this.#compare = h(
      'div',
      { class: 'compare', hidden: true },
      h('label', { for: 'diff-from' }, 'from'),
      this.#from,
      h('label', { for: 'diff-to' }, 'to'),
      this.#to,
    );
    this.#changes = h('div', { class: 'changes-body', 'data-testid': 'changes', hidden: true });
    this.#body = h(
      'div',
      { class: 'panel-body scroll code-scroll', tabIndex: 0, 'aria-labelledby': 'viewer-title', 'data-testid': 'viewer' },
      this.#compare,
      this.#fileBody,
      this.#changes,
    );
    const modeInput = (mode: Mode) =>
      h('input', { type: 'radio', name: 'viewer-mode', value: mode, checked: mode === 'file', onchange: () => this.setMode(mode) });
    this.#modeInputs = { file: modeInput('file'), changes: modeInput('changes') };
    const modeSwitch = h(
      'div',
      { class: 'segmented mode-switch', role: 'radiogroup', 'aria-label': 'Viewer shows' },
      h('label', { class: 'segment', 'data-testid': 'viewer-mode-file', title: 'The open file' }, this.#modeInputs.file, h('span', null, 'File')),
      h(
        'label',
        { class: 'segment', 'data-testid': 'viewer-mode-changes', title: 'What changed between two checkpoints (a unified diff)' },
        this.#modeInputs.changes,
        h('span', null, 'Changes'),
      ),
    );
    this.el = h(
      'section',
      { class: 'panel viewer', 'aria-label': 'File viewer' },
      h('header', { class: 'panel-head' }, this.#title, this.#meta, h('span', { class: 'spacer' }), modeSwitch),
      this.#body,
    );
    this.#placeholder();
    ws.onChange(() => (this.#mode === 'file' ? void this.#load(false) : this.#to.value === NOW ? void this.#loadChanges() : undefined));
    timeline.onChange(() => this.#fillSelects());
  }
  /** The open file's path as the heading, whole in its tooltip: a long one is cut with an ellipsis. */
  #showTitle(text: string): void {
    this.#title.textContent = text;
    this.#title.title = text;
  }

  get mode(): Mode {
    return this.#mode;
  }

  /** File: the open file. Changes: the diff between the two picked checkpoints (default: since the first one, to now). */
  setMode(mode: Mode): void {
    this.#mode = mode;
    this.#modeInputs[mode].checked = true;
    this.el.dataset.mode = mode;
    this.#compare.hidden = this.#changes.hidden = mode !== 'changes';
    this.#fileBody.hidden = mode !== 'file';
    if (mode === 'file') {
      this.#showTitle(this.#path ?? 'No file open');
      this.#version = -1;
      void this.#load(true);
    } else {
      this.#fillSelects();
      if (!this.#from.value && this.timeline.items[0]) this.#from.value = this.timeline.items[0].id;
      void this.#loadChanges();
    }
  }

  /** Shows what changed from checkpoint `from` to `to` (null: the current files). */
  showChanges(from: string, to: string | null): void {
    this.#fillSelects();
    this.#from.value = from;
    this.#to.value = to ?? NOW;
    this.setMode('changes');
  }

  #fillSelects(): void {
    const option = (value: string, text: string) => h('option', { value }, text);
    const items = this.timeline.items;
    const label = (i: number) => `#${i + 1} ${items[i]!.label ?? 'checkpoint'} · ${clockTime(items[i]!.createdAt)}`;
    const from = this.#from.value;
    const to = this.#to.value;
    clear(this.#from, ...items.map((c, i) => option(c.id, label(i))));
    clear(this.#to, option(NOW, 'now (current files)'), ...items.map((c, i) => option(c.id, label(i))));
    if (from && items.some((c) => c.id === from)) this.#from.value = from;
    this.#to.value = to && (to === NOW || items.some((c) => c.id === to)) ? to : NOW;
  }

  async #loadChanges(): Promise<void> {
    if (this.#mode !== 'changes') return;
    const token = ++this.#token;
    const from = this.#from.value;
    const to = this.#to.value === NOW ? undefined : this.#to.value;
    this.#showTitle('Changes');
    if (!from) {
      this.#meta.textContent = this.#meta.title = '';
      clear(this.#changes, h('p', { class: 'placeholder' }, 'No checkpoints yet.'));
      return;
    }
    const name = (id: string | undefined) => (id === undefined ? 'now' : `#${this.timeline.items.findIndex((c) => c.id === id) + 1}`);
    try {
      const diff = await this.ws.backend.diff(from, to);
      if (token !== this.#token) return;
      this.#meta.textContent = `${name(from)} → ${name(to)}`;
      this.#meta.title = '';
      clear(
        this.#changes,
        renderDiff(diff, (path) => this.open(path)),
      );
    } catch (e) {
      if (token !== this.#token) return;
      clear(this.#changes, h('p', { class: 'placeholder' }, `Could not compute the diff: ${(e as Error).message}`));
    }
  }

  get path(): string | null {
    return this.#path;
  }

  /**
   * After every file was replaced at once (Reset, an upload, Undo of a reset): the open file is
   * closed when the new files do not hold it, so the viewer shows the new state, not a file
   * that is gone. (A rollback keeps it open, saying it no longer exists: rolling forward brings
   * it back.) Resolves to whether it was closed.
   */
  async closeIfGone(): Promise<boolean> {
    const path = this.#path;
    if (!path) return false;
    const gone = await this.ws.backend.stat(path).then(
      () => false,
      (e: unknown) => isVfsError(e) && e.code === 'ENOENT',
    );
    if (!gone || this.#path !== path) return false;
    this.#path = null;
    this.#version = -1;
    this.#placeholder(); // (hidden in the Changes view until File is picked)
    if (this.#mode === 'file') {
      ++this.#token; // a read of it still under way shows nothing
      this.#showTitle('No file open');
      this.#meta.textContent = this.#meta.title = '';
    }
    return true;
  }

  open(path: string): Promise<void> {
    if (path !== this.#path) {
      this.#path = path;
      this.#version = -1;
    }
    if (this.#mode !== 'file') {
      this.setMode('file');
      return Promise.resolve();
    }
    return this.#load(true);
  }

  async #load(force: boolean): Promise<void> {
    const path = this.#path;
    if (!path || this.#mode !== 'file') return;
    const token = ++this.#token;
    try {
      const info = await this.ws.backend.stat(path);
      if (!force && info.version === this.#version) return;
      const bytes = await this.ws.backend.readFile(path);
      if (token !== this.#token || this.#mode !== 'file') return;
      this.#version = info.version;
      this.#showTitle(path);
      this.#meta.textContent = `${formatBytes(info.size)} · written ${clockTime(info.mtimeMs)} · write #${info.version}`;
      this.#meta.title = VERSION_HELP;
      if (bytes.subarray(0, 8192).includes(0)) {
        clear(this.#fileBody, h('p', { class: 'placeholder' }, `Binary file (${formatBytes(bytes.length)}): not shown.`));
      } else {
        this.#renderText(new TextDecoder().decode(bytes));
      }
    } catch (e) {
      if (token !== this.#token) return;
      this.#showTitle(path);
      this.#meta.textContent = this.#meta.title = '';
      this.#version = -1;
      clear(
        this.#fileBody,
        h('p', { class: 'placeholder' }, isVfsError(e) && e.code === 'ENOENT' ? 'This file no longer exists.' : String((e as Error).message)),
      );
    }
  }

  #renderText(text: string): void {
    const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    if (lines.length > 1 && lines.at(-1) === '') lines.pop();
    const shown = lines.slice(0, MAX_LINES);
    const gutter = shown.map((_, i) => i + 1).join('\n');
    const code = h('pre', { class: 'code' }, shown.join('\n'));
    clear(
      this.#fileBody,
      text.length === 0
        ? h('p', { class: 'placeholder' }, 'Empty file.')
        : h('div', { class: 'code-wrap' }, h('pre', { class: 'gutter', 'aria-hidden': 'true' }, gutter), code),
      lines.length > MAX_LINES ? h('p', { class: 'placeholder' }, `Showing the first ${MAX_LINES} of ${lines.length} lines.`) : null,
    );
  }

  #placeholder(): void {
    clear(this.#fileBody, h('p', { class: 'placeholder' }, 'Pick a file in the tree (or run the scripted agent and watch it work).'));
  }
}
