// The responsiveness check: ~50 MB of source files are uploaded into the worker in chunks
// (with progress), then grep runs over all of them in the worker while this page keeps
// answering input. A live timer and a "type here" box make that visible.
import { CORPUS_BYTES, CORPUS_DIR, CORPUS_PACKAGES, corpusPackage } from '../corpus.ts';
import type { Transcript } from '../transcript.ts';
import type { Workspace } from '../workspace.ts';
import { formatBytes, formatMs, h, sleep } from './dom.ts';

type Phase = 'idle' | 'uploading' | 'grepping' | 'done' | 'error';

export class LargeGrep {
  readonly el: HTMLElement;
  #phase: Phase = 'idle';
  #status: HTMLElement;
  #progress: HTMLProgressElement;
  #timer: HTMLElement;
  #pattern: HTMLInputElement;
  #run: HTMLButtonElement;
  #remove: HTMLButtonElement;
  #result: HTMLElement;
  #probe: HTMLInputElement;
  #probeEcho: HTMLElement;
  /** Input events the page handled while the worker was grepping (the proof). */
  #inputsDuringGrep = 0;

  constructor(
    private ws: Workspace,
    private transcript: Transcript,
  ) {
    this.#status = h('p', { class: 'status-line', 'data-testid': 'grep-status', role: 'status' }, `Not loaded: the corpus is generated on demand (${formatBytes(CORPUS_BYTES)}).`);
    this.#progress = h('progress', { max: CORPUS_BYTES, value: 0, 'aria-label': 'Upload progress', 'data-testid': 'grep-progress' });
    this.#timer = h('span', { class: 'timer', 'data-testid': 'grep-timer', 'aria-hidden': 'true' }, '');
    this.#pattern = h('input', { id: 'large-grep-pattern', type: 'text', value: '\\w+Sync\\(', spellcheck: false, autocomplete: 'off' });
    this.#run = h('button', { type: 'button', class: 'primary', 'data-testid': 'grep-run', onclick: () => void this.run() }, 'Run 50 MB grep');
    this.#remove = h('button', { type: 'button', class: 'ghost', 'data-testid': 'grep-remove', onclick: () => void this.#removeCorpus() }, 'Remove corpus');
    this.#result = h('pre', { class: 'result small', 'data-testid': 'grep-result', tabIndex: 0, hidden: true });
    this.#probe = h('input', {
      id: 'probe',
      type: 'text',
      placeholder: 'Type here while grep runs…',
      'data-testid': 'probe',
      autocomplete: 'off',
      oninput: () => {
        if (this.#phase === 'grepping') this.#inputsDuringGrep++;
        this.#probeEcho.textContent = `${this.#probe.value.length} chars · last keystroke at ${(performance.now() / 1000).toFixed(2)} s${this.#phase === 'grepping' ? ' (grep still running)' : ''}`;
      },
    });
    this.#probeEcho = h('span', { class: 'hint', 'data-testid': 'probe-echo' }, 'The page stays responsive: the grep runs in the worker.');
    this.el = h(
      'div',
      { class: 'large-grep', 'data-phase': 'idle', 'data-testid': 'large-grep' },
      h(
        'p',
        { class: 'tool-desc' },
        `Generates ${formatBytes(CORPUS_BYTES)} of TypeScript (${CORPUS_PACKAGES * 40} files) under ${CORPUS_DIR}, uploads it into the worker in chunks, then runs the grep tool over all of it. `,
        'The backend has no progress callback, so the page shows upload progress and a live timer; the search itself runs entirely in the worker.',
      ),
      h('div', { class: 'field' }, h('label', { for: 'large-grep-pattern', class: 'arg-name' }, 'pattern', h('span', { class: 'arg-type' }, 'regex')), this.#pattern),
      h('div', { class: 'actions' }, this.#run, this.#remove, this.#timer),
      this.#progress,
      this.#status,
      h('div', { class: 'field' }, h('label', { for: 'probe', class: 'arg-name' }, 'responsiveness check'), this.#probe, this.#probeEcho),
      this.#result,
    );
  }

  get stats(): { inputsDuringGrep: number; phase: Phase } {
    return { inputsDuringGrep: this.#inputsDuringGrep, phase: this.#phase };
  }

  #setPhase(phase: Phase, status: string): void {
    this.#phase = phase;
    this.el.dataset.phase = phase;
    this.#status.textContent = status;
    const busy = phase === 'uploading' || phase === 'grepping';
    this.#run.disabled = busy;
    this.#remove.disabled = busy;
  }

  async #ensureCorpus(): Promise<void> {
    const existing = (await this.ws.backend.exists(CORPUS_DIR)) ? await this.ws.backend.glob('**', { path: CORPUS_DIR }) : [];
    if (existing.length === CORPUS_PACKAGES * 40) {
      this.#progress.value = CORPUS_BYTES;
      return;
    }
    let uploaded = 0;
    this.#setPhase('uploading', `Uploading 0 / ${formatBytes(CORPUS_BYTES)}…`);
    for (let pkg = 0; pkg < CORPUS_PACKAGES; pkg++) {
      const files = corpusPackage(pkg);
      const results = await this.ws.backend.uploadFiles(files);
      const failed = results.find((r) => r.error);
      if (failed) throw new Error(`Upload of ${failed.path} failed: ${failed.error}`);
      uploaded += files.reduce((n, [, bytes]) => n + bytes.length, 0);
      this.#progress.value = uploaded;
      this.#status.textContent = `Uploading ${formatBytes(uploaded)} / ${formatBytes(CORPUS_BYTES)}…`;
      this.ws.changed();
      await sleep(0); // let the page paint between chunks
    }
    this.transcript.event('large grep', `Uploaded the corpus: ${CORPUS_PACKAGES * 40} files, ${formatBytes(CORPUS_BYTES)} under ${CORPUS_DIR}.`, `upload ${CORPUS_DIR} (${formatBytes(CORPUS_BYTES)})`);
  }

  async run(): Promise<void> {
    if (this.#run.disabled) return;
    this.#result.hidden = true;
    this.#inputsDuringGrep = 0;
    try {
      await this.#ensureCorpus();
      const pattern = this.#pattern.value;
      const started = performance.now();
      this.#setPhase('grepping', `Grepping ${formatBytes(CORPUS_BYTES)} for /${pattern}/ in the worker…`);
      const tick = setInterval(() => (this.#timer.textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`), 50);
      const tools = this.ws.session();
      const entry = await this.transcript.call(tools, 'large grep', 'grep', { pattern, path: CORPUS_DIR, output_mode: 'count', head_limit: 20 });
      clearInterval(tick);
      this.#timer.textContent = formatMs(entry.ms);
      this.#result.textContent = entry.result;
      this.#result.hidden = false;
      this.#setPhase(
        entry.ok ? 'done' : 'error',
        entry.ok
          ? `Searched ${formatBytes(CORPUS_BYTES)} in ${formatMs(entry.ms)}; the page handled ${this.#inputsDuringGrep} input event${this.#inputsDuringGrep === 1 ? '' : 's'} meanwhile.`
          : 'grep refused the pattern (see the result below).',
      );
    } catch (e) {
      this.#setPhase('error', `Failed: ${(e as Error).message}`);
    }
  }

  async #removeCorpus(): Promise<void> {
    const existed = await this.ws.backend.exists(CORPUS_DIR);
    if (existed) await this.ws.backend.remove(CORPUS_DIR, { recursive: true });
    this.#progress.value = 0;
    this.#timer.textContent = '';
    this.#result.hidden = true;
    this.#setPhase('idle', `Removed ${CORPUS_DIR}.`);
    if (existed) this.transcript.event('large grep', `Removed ${CORPUS_DIR}.`, `remove ${CORPUS_DIR}`);
    this.ws.changed();
  }
}
