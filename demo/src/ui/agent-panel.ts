// The Agent tab: the offline scripted agent (one click), and optionally a real model
// through an OpenAI-compatible endpoint.
import { DIALECT_NAMES, type DialectName } from 'agentvfs';
import { runDialectAgent } from '../agent/dialect-runs.ts';
import type { ModelSettings } from '../agent/model.ts';
import { PARALLEL_TASK, runParallelSubagents, type ForkProgress } from '../agent/parallel.ts';
import { unfinishedStatus } from '../agent/denials.ts';
import { runScriptedAgent, TASK } from '../agent/scripted.ts';
import { endRun, StoppedError, startRun, stoppedWords, stopRun } from '../agent/stopped.ts';
import type { Transcript } from '../transcript.ts';
import type { Workspace } from '../workspace.ts';
import { breakAtUnderscores, canFocus, focusLost, h, plural } from './dom.ts';

const SETTINGS_KEY = 'agentvfs-demo:model';

export class AgentPanel {
  readonly el: HTMLElement;
  #run: HTMLButtonElement;
  #runAll: HTMLButtonElement;
  #dialect: HTMLSelectElement;
  #compare: HTMLElement;
  #status: HTMLElement;
  #parallelRun: HTMLButtonElement;
  #parallelStatus: HTMLElement;
  #forks: HTMLElement;
  #parallel: HTMLElement;
  #busy = false;
  #pressed: HTMLElement | null = null;
  #stop: HTMLButtonElement;
  // The scripted run under way, for Stop.
  #stopping: AbortController | null = null;

  constructor(
    private ws: Workspace,
    private transcript: Transcript,
    private onBusy: (busy: boolean) => void,
    /**
     * Back to the sample project before a run (the header's Reset, with its undo; it records the
     * event, naming the run: `run` is "the scripted run", "the gemini run", "the parallel subagents").
     */
    private reset: (run: string) => Promise<void> = () => ws.reset(),
  ) {
    this.#run = h(
      'button',
      { type: 'button', class: 'primary', 'data-testid': 'agent-run', 'data-focus-after-dialog': '', onclick: () => void this.runScripted() },
      '▶ Run scripted agent',
    );
    this.#stop = h(
      'button',
      { type: 'button', class: 'danger', 'data-testid': 'agent-stop', 'data-focus-after-dialog': '', hidden: true, onclick: () => this.#stopping?.abort() },
      '■ Stop',
    );
    this.#status = h('p', { class: 'status-line', role: 'status', 'data-testid': 'agent-status' }, 'Runs offline: no model, no network.');
    this.#dialect = h(
      'select',
      { id: 'agent-dialect', 'data-testid': 'agent-dialect' },
      ...DIALECT_NAMES.map((d) => h('option', { value: d, selected: d === 'agentvfs' }, d)),
    );
    this.#runAll = h('button', { type: 'button', 'data-testid': 'agent-run-all', onclick: () => void this.runEveryDialect() }, 'Run in every dialect');
    this.#compare = h('table', { class: 'dialect-compare', 'data-testid': 'dialect-compare', hidden: true });
    this.#parallelRun = h(
      'button',
      { type: 'button', class: 'primary', 'data-testid': 'parallel-run', onclick: () => void this.runParallel() },
      '▶ Run parallel subagents',
    );
    // A run with no Stop: its status takes focus from the disabled button (and after a question).
    this.#parallelStatus = h(
      'p',
      { class: 'status-line', role: 'status', tabIndex: -1, 'data-testid': 'parallel-status', 'data-focus-after-dialog': '' },
      'Two forks of the workspace, merged back.',
    );
    this.#forks = h('ul', { class: 'forks', 'data-testid': 'parallel-forks' });
    this.#parallel = h(
      'div',
      { class: 'parallel', 'data-testid': 'parallel' },
      h('h3', null, 'Parallel subagents'),
      h('p', { class: 'task' }, PARALLEL_TASK),
      h(
        'ol',
        { class: 'plan' },
        h('li', null, h('code', null, 'fork()'), ' the workspace twice: each subagent works in its own copy-on-write fork, at the same time'),
        h('li', null, h('code', null, 'merge()'), ' the renamer: its edits land'),
        h('li', null, 'merge the tester: both changed one README line, so the merge reports a conflict and changes nothing'),
        h('li', null, 'the tester takes the workspace’s changes into its fork (markers on that line), keeps both sides, and merges again'),
      ),
      h('div', { class: 'actions' }, this.#parallelRun),
      this.#forks,
      this.#parallelStatus,
    );
    this.el = h(
      'div',
      { class: 'agent-panel' },
      h('h3', null, 'Scripted agent'),
      h('p', { class: 'task' }, TASK),
      h(
        'ol',
        { class: 'plan' },
        h('li', null, h('code', null, 'ls'), ', ', h('code', null, 'glob'), ' and ', h('code', null, 'grep'), ' to find every use'),
        h('li', null, h('code', null, 'read_file'), ' then ', h('code', null, 'edit_file'), ' in each file'),
        h('li', null, 'a teammate saves ', h('code', null, 'checkout.ts'), ' mid-task: the edit is refused as stale, the agent re-reads and retries'),
        h('li', null, h('code', null, 'grep'), ' to verify, ', h('code', null, 'write_file'), ' a changelog'),
      ),
      h(
        'p',
        { class: 'hint' },
        'Starts from a fresh copy of the sample project. Every call goes through the real tools in the worker. ',
        'Pick a dialect to do the same rename with the tools another model family was trained on ',
        '(OpenAI apply_patch, Anthropic text editor, Gemini CLI, MCP filesystem).',
      ),
      h('div', { class: 'field inline dialect' }, h('label', { for: 'agent-dialect', class: 'arg-name' }, 'dialect'), this.#dialect),
      h('div', { class: 'actions' }, this.#run, this.#runAll, this.#stop),
      this.#status,
      this.#compare,
      this.#parallel,
      this.#modelSettings(),
    );
  }

  async runParallel(): Promise<void> {
    if (this.#busy) return;
    this.#setBusy(true);
    if (focusLost()) this.#parallelStatus.focus();
    this.#parallelStatus.textContent = 'Running…';
    this.#parallel.dataset.state = 'running';
    const rows = new Map<string, HTMLElement>();
    this.#forks.replaceChildren();
    const show = (p: ForkProgress) => {
      let row = rows.get(p.name);
      if (!row) {
        row = h('li', { 'data-fork': p.name });
        rows.set(p.name, row);
        this.#forks.append(row);
      }
      row.dataset.state = p.state;
      const files = p.changed.length === 1 ? '1 file' : `${p.changed.length} files`;
      row.textContent = `${p.name}: ${p.state}, ${files} changed in its fork${p.changed.length ? ` (${p.changed.join(', ')})` : ''}`;
    };
    try {
      await this.reset('the parallel subagents');
      const run = await runParallelSubagents(this.ws, this.transcript, show);
      const conflicts = run.conflicts.length === 1 ? '1 conflict' : `${run.conflicts.length} conflicts`;
      this.#parallelStatus.textContent = run.ok
        ? `Done: ${run.merged.length} paths merged; ${conflicts} reported, then settled in the fork (${run.conflicts.map((c) => `${c.path}, ${c.kind}`).join('; ')}).`
        : unfinishedStatus(run.denied);
      this.#parallel.dataset.state = run.ok ? 'done' : 'failed';
    } catch (e) {
      this.#parallelStatus.textContent = `Failed: ${(e as Error).message}`;
      this.#parallel.dataset.state = 'failed';
    } finally {
      this.#setBusy(false);
    }
  }

  async runScripted(): Promise<void> {
    if (this.#busy) return;
    this.#setBusy(true);
    const signal = this.#stoppable();
    this.#status.textContent = 'Running…';
    this.el.dataset.state = 'running';
    const dialect = this.#dialect.value as DialectName;
    try {
      await this.reset(dialect === 'agentvfs' ? 'the scripted run' : `the ${dialect} run`);
      if (dialect === 'agentvfs') {
        const run = await runScriptedAgent(this.ws, this.transcript, undefined, signal);
        this.#status.textContent = run.ok
          ? `Done: ${run.filesChanged.length} files changed, ${run.staleRecoveries} stale edit recovered. Expand the transcript rows to see each result.`
          : unfinishedStatus(run.denied);
        this.el.dataset.state = run.ok ? 'done' : 'failed';
      } else {
        const calls = this.transcript.entries.length;
        const run = await runDialectAgent(this.ws, this.transcript, dialect, undefined, signal);
        const made = this.transcript.entries.slice(calls).filter((e) => e.kind === 'call').length;
        this.#status.textContent = run.ok
          ? `Done with the ${dialect} tools: ${run.filesChanged.length} files changed in ${made} tool calls.`
          : unfinishedStatus(run.denied);
        this.el.dataset.state = run.ok ? 'done' : 'failed';
      }
    } catch (e) {
      this.#failed(e);
    } finally {
      this.#setBusy(false);
    }
  }

  /** The same task in each dialect, one after the other from a fresh sample project, side by side. */
  async runEveryDialect(): Promise<void> {
    if (this.#busy) return;
    this.#setBusy(true);
    const signal = this.#stoppable();
    this.el.dataset.state = 'running';
    const rows: HTMLElement[] = [];
    let allOk = true;
    /** Writes denied over all the runs, and whether a run failed for another reason. */
    let denied = 0;
    let failed = false;
    try {
      for (const dialect of DIALECT_NAMES) {
        this.#status.textContent = `Running with the ${dialect} tools…`;
        await this.reset(dialect === 'agentvfs' ? 'the scripted run' : `the ${dialect} run`);
        const before = this.transcript.entries.length;
        const run =
          dialect === 'agentvfs'
            ? await runScriptedAgent(this.ws, this.transcript, 50, signal)
            : await runDialectAgent(this.ws, this.transcript, dialect, 50, signal);
        const ok = run.ok;
        denied += run.denied;
        failed ||= !ok && run.denied === 0;
        const calls = this.transcript.entries.slice(before).filter((e) => e.kind === 'call');
        const tools = [...new Set(calls.map((e) => (e.kind === 'call' ? e.tool : '')))];
        allOk &&= ok;
        rows.push(
          h(
            'tr',
            { 'data-dialect': dialect, 'data-ok': String(ok) },
            h('td', null, dialect),
            h('td', null, String(calls.length)),
            h('td', null, h('code', null, ...tools.flatMap((tool, i) => [i > 0 ? ', ' : null, ...breakAtUnderscores(tool)]))),
            h('td', null, ok ? 'done' : run.denied > 0 ? `${plural(run.denied, 'write')} denied` : 'failed'),
          ),
        );
      }
      this.#compare.replaceChildren(
        h('caption', null, 'The same rename in each dialect'),
        h('tr', null, h('th', null, 'dialect'), h('th', null, 'calls'), h('th', null, 'tools used'), h('th', null, 'result')),
        ...rows,
      );
      this.#compare.hidden = false;
      this.#status.textContent = allOk
        ? `Done in all ${DIALECT_NAMES.length} dialects; the workspace shows the last run.`
        : failed
          ? 'A dialect run failed; see the transcript.'
          : unfinishedStatus(denied);
      this.el.dataset.state = allOk ? 'done' : 'failed';
    } catch (e) {
      this.#failed(e);
    } finally {
      this.#setBusy(false);
    }
  }

  /** A run that Stop can end: the signal its calls are made with. */
  #stoppable(): AbortSignal {
    this.#stopping = startRun();
    this.#stop.hidden = false;
    // The Run button pressed is disabled now: its focus goes to Stop, not to the page.
    if (focusLost()) this.#stop.focus();
    return this.#stopping.signal;
  }

  #failed(e: unknown): void {
    if (e instanceof StoppedError) {
      const words = stoppedWords();
      this.transcript.event('agent', words.transcript);
      this.#status.textContent = words.status;
      this.el.dataset.state = 'stopped';
      return;
    }
    this.#status.textContent = `Failed: ${(e as Error).message}`;
    this.el.dataset.state = 'failed';
  }

  #setBusy(busy: boolean): void {
    // The button pressed (before it is disabled), to give focus back to when the run ends.
    if (busy) this.#pressed = document.activeElement as HTMLElement | null;
    if (!busy) {
      if (this.#stopping) endRun(this.#stopping);
      this.#stopping = null;
      this.#stop.hidden = true;
    }
    this.#busy = busy;
    this.#run.disabled = busy;
    this.#runAll.disabled = busy;
    this.#parallelRun.disabled = busy;
    // Stop (or a Run button) had focus and is hidden or disabled now: back to the button pressed.
    // (The parallel run's status held it only while the run went on.)
    if (!busy && (focusLost() || document.activeElement === this.#parallelStatus))
      (this.#pressed && this.#pressed !== document.body && canFocus(this.#pressed) ? this.#pressed : this.#run).focus();
    this.onBusy(busy);
  }

  #modelSettings(): HTMLElement {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as Partial<ModelSettings>;
    const baseUrl = h('input', { id: 'model-url', type: 'url', value: saved.baseUrl ?? 'https://api.openai.com/v1', spellcheck: false });
    const model = h('input', { id: 'model-name', type: 'text', value: saved.model ?? 'gpt-4.1-mini', spellcheck: false });
    const apiKey = h('input', { id: 'model-key', type: 'password', autocomplete: 'off', placeholder: 'kept in this tab only, never saved' });
    const task = h('textarea', { id: 'model-task', rows: 3, value: 'Rename formatPrice to formatMoney everywhere, then add a CHANGELOG.md entry.' });
    const status = h('p', { class: 'status-line', role: 'status', 'data-testid': 'model-status' });
    const run = h(
      'button',
      {
        type: 'button',
        'data-testid': 'model-run',
        onclick: async () => {
          if (this.#busy) return;
          const settings = { baseUrl: baseUrl.value, model: model.value, apiKey: apiKey.value };
          localStorage.setItem(SETTINGS_KEY, JSON.stringify({ baseUrl: settings.baseUrl, model: settings.model }));
          this.#setBusy(true);
          run.disabled = true;
          const stopping = startRun();
          stop.hidden = false;
          status.textContent = `Running ${settings.model}…`;
          try {
            // The AI SDK loads with the first model run, not with the page.
            const { runModelAgent } = await import('../agent/model.ts');
            await runModelAgent(this.ws, this.transcript, settings, task.value, stopping.signal);
            status.textContent = 'Finished.';
          } catch (e) {
            if (stopping.signal.aborted) {
              const words = stoppedWords();
              this.transcript.event('model', words.transcript);
              status.textContent = words.status;
            } else status.textContent = `Failed: ${modelFailure(e as Error)}`;
          } finally {
            endRun(stopping);
            stop.hidden = true;
            run.disabled = false;
            this.#setBusy(false);
          }
        },
      },
      'Run with model',
    );
    // Ends the model's run: the SDK's abortSignal (a call waiting for approval writes nothing).
    const stop = h('button', { type: 'button', class: 'danger', 'data-testid': 'model-stop', hidden: true, onclick: () => stopRun() }, '■ Stop');
    const field = (id: string, label: string, input: HTMLElement) => h('div', { class: 'field' }, h('label', { for: id, class: 'arg-name' }, label), input);
    return h(
      'details',
      { class: 'model-settings' },
      h('summary', null, 'Use a real model (OpenAI-compatible endpoint)'),
      h(
        'p',
        { class: 'hint' },
        'Runs the model with the Vercel AI SDK (agentvfs/ai): the six tools go to {base URL}/chat/completions, each tool call the model makes runs here, in the worker. The endpoint must allow CORS. Works on the current files (no reset).',
      ),
      h(
        'form',
        { onsubmit: (e: Event) => (e.preventDefault(), run.click()) },
        field('model-url', 'base URL', baseUrl),
        field('model-name', 'model', model),
        field('model-key', 'API key', apiKey),
        field('model-task', 'task', task),
        h('div', { class: 'actions' }, run, stop),
      ),
      status,
    );
  }
}

/** A model run's failure, with where to look when the page never reached the endpoint. */
function modelFailure(e: Error): string {
  // (fetch says only "Failed to fetch" for a wrong URL, a server that is down and a CORS refusal alike)
  return e.message === 'Failed to fetch' || (e.name === 'TypeError' && /fetch/i.test(e.message))
    ? `${e.message}: the page could not reach the endpoint. Check the URL, that the server runs, and that it allows requests from this page (CORS).`
    : e.message;
}
