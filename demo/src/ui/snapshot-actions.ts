// Header actions on the whole workspace: download a snapshot (.avfs), upload one
// (restore: all or nothing), and reset to the sample project (with undo). Reset also
// forgets the copy saved in this browser, so a reload after it shows the sample project.
// Each change is a transcript event, so the timeline takes a checkpoint of it.
import { isVfsError } from 'agentvfs';
import type { Transcript } from '../transcript.ts';
import type { Workspace } from '../workspace.ts';
import { formatBytes, h } from './dom.ts';
import type { Notices } from './notices.ts';

/** A button label with a shorter form for narrow screens (styles.css shows one of them). */
const label = (wide: string, narrow: string) => [h('span', { class: 'wide-label' }, wide), h('span', { class: 'narrow-label' }, narrow)];

export class SnapshotActions {
  readonly el: HTMLElement;
  #buttons: HTMLButtonElement[];

  constructor(
    private ws: Workspace,
    private notices: Notices,
    private transcript: Transcript,
  ) {
    const file = h('input', {
      type: 'file',
      accept: '.avfs,application/octet-stream',
      hidden: true,
      'data-testid': 'snapshot-file',
      onchange: () => void this.#upload(file),
    });
    this.#buttons = [
      h(
        'button',
        { type: 'button', 'data-testid': 'snapshot-download', title: 'Save every file as one .avfs snapshot', onclick: () => void this.download() },
        ...label('↓ Download snapshot', '↓ Snapshot'),
      ),
      h(
        'button',
        { type: 'button', 'data-testid': 'snapshot-upload', title: 'Replace every file with a .avfs snapshot', onclick: () => file.click() },
        ...label('↑ Upload snapshot', '↑ Upload'),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          'data-testid': 'reset',
          title: 'Back to the sample project (undo available)',
          onclick: () =>
            void this.reset().catch((e: unknown) => {
              const detail = isVfsError(e) ? `${e.code}: ${e.message}` : (e as Error).message;
              this.notices.error('Could not reset. Nothing was changed.', detail);
            }),
        },
        'Reset',
      ),
    ];
    this.el = h('div', { class: 'snapshot-actions' }, file, ...this.#buttons);
  }

  setDisabled(disabled: boolean): void {
    for (const b of this.#buttons) b.disabled = disabled;
  }

  async download(): Promise<void> {
    const bytes = await this.ws.snapshot();
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
    const name = `agentvfs-${stamp}.avfs`;
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    const a = h('a', { href: url, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    this.notices.info(`Downloaded ${name} (${formatBytes(bytes.length)}).`);
  }

  async #upload(input: HTMLInputElement): Promise<void> {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    try {
      await this.ws.restore(bytes);
      this.transcript.event('workspace', `Restored the snapshot ${file.name} (${formatBytes(bytes.length)}).`, `upload ${file.name}`);
      this.notices.info(`Restored ${file.name} (${formatBytes(bytes.length)}).`);
    } catch (e) {
      const detail = isVfsError(e) ? `${e.code}: ${e.message}` : (e as Error).message;
      this.notices.error(`Could not restore “${file.name}”. Nothing was changed.`, detail);
    }
  }

  async reset(why = 'Reset to the sample project (saved in this browser as one change).'): Promise<void> {
    const before = await this.ws.snapshot();
    await this.ws.reset();
    const after = await this.ws.snapshot();
    this.transcript.event('workspace', why, 'reset to the sample project');
    this.notices.info('Reset to the sample project.', { label: 'Undo', run: () => void this.#undoReset(before, after) });
  }

  /**
   * Back to `before`. When the files changed since the reset left them as `after` (a run resets
   * first, then works), that work goes too, and Undo says so: it is what "my files from before
   * the run" means, but not what "undo the reset" says.
   */
  async #undoReset(before: Uint8Array, after: Uint8Array): Promise<void> {
    try {
      const since = !equalBytes(await this.ws.snapshot(), after);
      await this.ws.restore(before);
      const what = since ? 'the files from before the reset are back, and what changed after it (a run, an edit) is gone' : 'the files from before it are back';
      this.transcript.event('workspace', `Undid the reset: ${what} (saved again).`, 'undo reset');
      this.notices.info(`Reset undone: ${what}.`);
    } catch (e) {
      this.notices.error('Could not undo the reset. Nothing was changed.', isVfsError(e) ? `${e.code}: ${e.message}` : (e as Error).message);
    }
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
