// The responsiveness check: ~50 MB of source files are uploaded into the worker in chunks
// (with progress), then grep runs over all of them in the worker. While it runs, a
// StallMeter measures the longest time the page went without drawing a frame, and the
// result says it ("the page never froze for more than N ms"): a figure, not a race
// between the search and your typing.
import { CORPUS_BYTES, CORPUS_DIR, CORPUS_PACKAGES, corpusPackage } from '../corpus.ts';
import { StallMeter, type StallReport } from '../stall-meter.ts';
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
  #meter = new StallMeter();
  /** The last run: the phases it went through, its upload chunks, and the stall figures of its search. */
  #last: { phases: Phase[]; uploadChunks: number; searchMs: number | null; stall: StallReport | null } = {
    phases: [],
    uploadChunks: 0,
    searchMs: null,
    stall: null,
  };

  constructor(
    private ws: Workspace,
    private transcript: Transcript,
  ) {
    this.#status = h(
      'p',
      { class: 'status-line', 'data-testid': 'grep-status', role: 'status' },
      `Not loaded: the corpus is generated on demand (${formatBytes(CORPUS_BYTES)}).`,
    );
    this.#progress = h('progress', { max: CORPUS_BYTES, value: 0, 'aria-label': 'Upload progress', 'data-testid': 'grep-progress' });
    this.#timer = h('span', { class: 'timer', 'data-testid': 'grep-timer', 'aria-hidden': 'true' }, '');
    this.#pattern = h('input', { id: 'large-grep-pattern', type: 'text', value: '\\w+Sync\\(', spellcheck: false, autocomplete: 'off' });
    this.#run = h('button', { type: 'button', class: 'primary', 'data-testid': 'grep-run', onclick: () => void this.run() }, 'Run 50 MB grep');
    // Enabled while the corpus is in the workspace (#sync).
    this.#remove = h(
      'button',
      { type: 'button', class: 'ghost', 'data-testid': 'grep-remove', disabled: true, onclick: () => void this.#removeCorpus() },
      'Remove corpus',
    );
    this.#result = h('pre', { class: 'result small', 'data-testid': 'grep-result', tabIndex: 0, hidden: true });
    this.#probe = h('input', {
      id: 'probe',
      type: 'text',
      placeholder: 'Type here while grep runs…',
      'data-testid': 'probe',
      autocomplete: 'off',
      oninput: () => {
        this.#probeEcho.textContent = `${this.#probe.value.length} chars · last keystroke at ${(performance.now() / 1000).toFixed(2)} s${this.#phase === 'grepping' ? ' (grep still running)' : ''}`;
      },
    });
    this.#probeEcho = h(
      'span',
      { class: 'hint', 'data-testid': 'probe-echo' },
      'Type while the grep runs: the page answers at once, because the search runs in the worker.',
    );
    this.el = h(
      'div',
      { class: 'large-grep', 'data-phase': 'idle', 'data-testid': 'large-grep' },
      h(
        'p',
        { class: 'tool-desc' },
        `Generates ${formatBytes(CORPUS_BYTES)} of TypeScript (${CORPUS_PACKAGES * 40} files) under ${CORPUS_DIR}, uploads it into the worker in chunks, then runs the grep tool over all of it. `,
        'The search runs entirely in the worker; meanwhile the page counts its frames and reports the longest time it went without drawing one (its longest freeze).',
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'large-grep-pattern', class: 'arg-name' }, 'pattern', h('span', { class: 'arg-type' }, 'regex')),
        this.#pattern,
      ),
      h('div', { class: 'actions' }, this.#run, this.#remove, this.#timer),
      this.#progress,
      this.#status,
      h('div', { class: 'field' }, h('label', { for: 'probe', class: 'arg-name' }, 'responsiveness check'), this.#probe, this.#probeEcho),
      this.#result,
    );
    // Reset, an upload, a rollback or an Undo can take the corpus away or bring it back.
    void ws.started.then(() => this.#sync());
    ws.onChange(() => void this.#sync());
  }

  /** Follows whether the corpus is in the workspace: Remove, the progress bar and the status say so. */
  async #sync(): Promise<void> {
    if (this.#busy) return;
    const loaded = await this.ws.backend.exists(CORPUS_DIR).catch(() => false);
    if (this.#busy) return;
    this.#remove.disabled = !loaded;
    const shown = this.#progress.value > 0;
    if (loaded === shown) return;
    this.#progress.value = loaded ? CORPUS_BYTES : 0;
    this.#timer.textContent = '';
    this.#result.hidden = true;
    this.#setPhase(
      'idle',
      loaded
        ? `${CORPUS_DIR} is back in the workspace: Run searches it.`
        : `Not loaded: ${CORPUS_DIR} is no longer in the workspace. Run generates it again (${formatBytes(CORPUS_BYTES)}).`,
      false,
    );
  }

  get #busy(): boolean {
    return this.#phase === 'uploading' || this.#phase === 'grepping';
  }

  /** The current phase and the last run's figures (read by the e2e tests). */
  get stats(): { phase: Phase; phases: Phase[]; uploadChunks: number; searchMs: number | null; stall: StallReport | null } {
    return { phase: this.#phase, ...this.#last, phases: [...this.#last.phases] };
  }

  /** `record`: a phase of a run (stats.phases); not when the workspace changed under the panel. */
  #setPhase(phase: Phase, status: string, record = true): void {
    this.#phase = phase;
    if (record) this.#last.phases.push(phase);
    this.el.dataset.phase = phase;
    this.#status.textContent = status;
    this.#run.disabled = this.#busy;
    this.#remove.disabled = this.#busy || this.#progress.value === 0;
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
      this.#last.uploadChunks++;
      this.#status.textContent = `Uploading ${formatBytes(uploaded)} / ${formatBytes(CORPUS_BYTES)}…`;
      this.ws.changed();
      await sleep(0); // let the page paint between chunks
    }
    this.transcript.event(
      'large grep',
      `Uploaded the corpus: ${CORPUS_PACKAGES * 40} files, ${formatBytes(CORPUS_BYTES)} under ${CORPUS_DIR}.`,
      `upload ${CORPUS_DIR} (${formatBytes(CORPUS_BYTES)})`,
    );
  }

  async run(): Promise<void> {
    if (this.#run.disabled) return;
    this.#result.hidden = true;
    this.#last = { phases: [], uploadChunks: 0, searchMs: null, stall: null };
    try {
      await this.#ensureCorpus();
      const pattern = this.#pattern.value;
      this.#setPhase('grepping', `Grepping ${formatBytes(CORPUS_BYTES)} for /${pattern}/ in the worker…`);
      this.#meter.start(
        (live) => (this.#timer.textContent = `${(live.windowMs / 1000).toFixed(1)} s · longest freeze so far ${Math.round(live.longestMs)} ms`),
      );
      const tools = this.ws.session();
      const entry = await this.transcript
        .call(tools, 'large grep', 'grep', { pattern, path: CORPUS_DIR, output_mode: 'count', head_limit: 20 })
        .finally(() => (this.#last.stall = this.#meter.stop()));
      const stall = this.#last.stall!;
      this.#last.searchMs = entry.ms;
      this.#timer.textContent = formatMs(entry.ms);
      this.#result.textContent = entry.result;
      this.#result.hidden = false;
      this.#setPhase(
        entry.ok ? 'done' : 'error',
        entry.ok
          ? `Searched ${formatBytes(CORPUS_BYTES)} in ${formatMs(entry.ms)}, in the worker. Meanwhile the page drew ${stall.frames} frame${stall.frames === 1 ? '' : 's'} and never froze for more than ${Math.round(stall.longestMs)} ms (its longest time without a frame).`
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
