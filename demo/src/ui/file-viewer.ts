// Shows one file's current text with line numbers, re-read whenever its version changes.
//
// The diff view (Snapshots issue) plugs in here: a "File | Changes" switch in the header,
// rendering a diff of this file between two snapshots instead of #renderText.
import { isVfsError } from 'agentvfs';
import type { Workspace } from '../workspace.ts';
import { clear, formatBytes, h } from './dom.ts';

const MAX_LINES = 5000;

export class FileViewer {
  readonly el: HTMLElement;
  #title: HTMLElement;
  #meta: HTMLElement;
  #body: HTMLElement;
  #path: string | null = null;
  #version = -1;
  #token = 0;

  constructor(private ws: Workspace) {
    this.#title = h('h2', { class: 'path', id: 'viewer-title' }, 'No file open');
    this.#meta = h('span', { class: 'muted', 'data-testid': 'viewer-meta' });
    this.#body = h('div', { class: 'panel-body scroll code-scroll', tabIndex: 0, 'aria-labelledby': 'viewer-title', 'data-testid': 'viewer' });
    this.el = h('section', { class: 'panel viewer', 'aria-label': 'File viewer' }, h('header', { class: 'panel-head' }, this.#title, this.#meta), this.#body);
    this.#placeholder();
    ws.onChange(() => void this.#load(false));
  }

  get path(): string | null {
    return this.#path;
  }

  open(path: string): Promise<void> {
    if (path !== this.#path) {
      this.#path = path;
      this.#version = -1;
    }
    return this.#load(true);
  }

  async #load(force: boolean): Promise<void> {
    const path = this.#path;
    if (!path) return;
    const token = ++this.#token;
    try {
      const info = await this.ws.backend.stat(path);
      if (!force && info.version === this.#version) return;
      const bytes = await this.ws.backend.readFile(path);
      if (token !== this.#token) return;
      this.#version = info.version;
      this.#title.textContent = path;
      this.#meta.textContent = `${formatBytes(info.size)} · version ${info.version} · ${new Date(info.mtimeMs).toLocaleTimeString()}`;
      if (bytes.subarray(0, 8192).includes(0)) {
        clear(this.#body, h('p', { class: 'placeholder' }, `Binary file (${formatBytes(bytes.length)}): not shown.`));
      } else {
        this.#renderText(new TextDecoder().decode(bytes));
      }
    } catch (e) {
      if (token !== this.#token) return;
      this.#title.textContent = path;
      this.#meta.textContent = '';
      this.#version = -1;
      clear(this.#body, h('p', { class: 'placeholder' }, isVfsError(e) && e.code === 'ENOENT' ? 'This file no longer exists.' : String((e as Error).message)));
    }
  }

  #renderText(text: string): void {
    const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    if (lines.length > 1 && lines.at(-1) === '') lines.pop();
    const shown = lines.slice(0, MAX_LINES);
    const gutter = shown.map((_, i) => i + 1).join('\n');
    const code = h('pre', { class: 'code' }, shown.join('\n'));
    clear(
      this.#body,
      text.length === 0
        ? h('p', { class: 'placeholder' }, 'Empty file.')
        : h('div', { class: 'code-wrap' }, h('pre', { class: 'gutter', 'aria-hidden': 'true' }, gutter), code),
      lines.length > MAX_LINES ? h('p', { class: 'placeholder' }, `Showing the first ${MAX_LINES} of ${lines.length} lines.`) : null,
    );
  }

  #placeholder(): void {
    clear(this.#body, h('p', { class: 'placeholder' }, 'Pick a file in the tree (or run the scripted agent and watch it work).'));
  }
}
