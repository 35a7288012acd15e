// The transcript: one row per tool call (who called it, arguments, duration, the first
// line of the result); expand a row to see the arguments and the exact result text.
import { pathArg, type CallEntry, type Entry, type EventEntry, type Transcript } from '../transcript.ts';
import { clear, formatMs, h } from './dom.ts';
import type { Notices } from './notices.ts';

const DECISION_TITLE = {
  allow: 'You allowed this write',
  always: 'Allowed: you chose Always for this session',
  edit: 'You changed the content before it was written',
  deny: 'You denied this write',
} as const;

/** Saves the transcript as a .jsonl file. */
function download(transcript: Transcript): void {
  const url = URL.createObjectURL(new Blob([transcript.toJsonLines()], { type: 'application/jsonl' }));
  const a = h('a', { href: url, download: 'agentvfs-transcript.jsonl' });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000); // after the browser has taken the file
}

export class TranscriptView {
  readonly el: HTMLElement;
  #list: HTMLElement;
  #stats: HTMLElement;
  #calls = 0;
  #totalMs = 0;
  /** The entries rolled back (setUndone), marked again when they are drawn again. */
  #undone = new Set<number>();

  constructor(
    transcript: Transcript,
    /** Offered while the transcript is empty: the quickest way to see the tools at work. */
    private tryAgent?: () => void,
    /** Where Clear says what it did, with Undo (as Reset and rollbacks do). */
    notices?: Notices,
  ) {
    this.#list = h('ol', { class: 'transcript', 'data-testid': 'transcript', 'aria-label': 'Tool calls' });
    this.#stats = h('span', { class: 'muted', 'data-testid': 'transcript-stats' });
    const clearButton = h(
      'button',
      {
        type: 'button',
        class: 'ghost small',
        'data-testid': 'transcript-clear',
        onclick: () => {
          const removed = transcript.clear();
          if (removed.length === 0) return;
          const n = `${removed.length} ${removed.length === 1 ? 'entry' : 'entries'}`;
          notices?.info(`Cleared the transcript (${n}).`, {
            label: 'Undo',
            run: () => {
              transcript.restore(removed);
              notices.info(`Transcript back (${n}).`);
            },
          });
        },
      },
      'Clear',
    );
    const exportButton = h(
      'button',
      {
        type: 'button',
        class: 'ghost small',
        'data-testid': 'transcript-export',
        title: 'Download the transcript as JSON Lines',
        onclick: () => download(transcript),
      },
      'Export JSONL',
    );
    this.el = h(
      'section',
      { class: 'panel transcript-panel', 'aria-labelledby': 'transcript-title' },
      h(
        'header',
        { class: 'panel-head' },
        h('h2', { id: 'transcript-title' }, 'Transcript'),
        this.#stats,
        h('span', { class: 'spacer' }),
        exportButton,
        clearButton,
      ),
      h('div', { class: 'panel-body scroll', 'data-scroll': 'transcript' }, this.#list),
    );
    this.#empty();
    transcript.onEntry((entry) => (entry ? this.#add(entry) : this.#redraw(transcript.entries)));
  }

  /** Marks the calls and events whose changes were rolled back (not in the current files). */
  setUndone(ids: Set<number>): void {
    this.#undone = ids;
    for (const li of this.#list.querySelectorAll<HTMLElement>('li.entry')) this.#mark(li);
  }

  #mark(li: HTMLElement): void {
    const undone = this.#undone.has(Number(li.dataset.id));
    li.classList.toggle('undone', undone);
    li.toggleAttribute('data-undone', undone);
    li.title = undone ? 'Rolled back: this change is not in the current files' : '';
  }

  /** The entries were replaced (cleared, or a clear undone): drawn again from the start. */
  #redraw(entries: readonly Entry[]): void {
    this.#calls = 0;
    this.#totalMs = 0;
    this.#empty();
    for (const entry of entries) this.#add(entry);
  }

  #empty(): void {
    this.#stats.textContent = '';
    clear(
      this.#list,
      h(
        'li',
        { class: 'placeholder' },
        'Every tool call lands here, with its arguments, timing and the exact result text.',
        this.tryAgent ? h('button', { type: 'button', 'data-testid': 'try-agent', onclick: () => this.tryAgent?.() }, '▶ Watch the scripted agent') : null,
      ),
    );
  }

  #add(entry: Entry): void {
    this.#list.querySelector('.placeholder')?.remove();
    const scroller = this.#list.parentElement!;
    const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 40;
    const li = entry.kind === 'call' ? this.#call(entry) : this.#event(entry);
    if (this.#undone.has(entry.id)) this.#mark(li);
    this.#list.append(li);
    if (entry.kind === 'call') {
      this.#calls++;
      this.#totalMs += entry.ms;
    }
    this.#stats.textContent = `${this.#calls} call${this.#calls === 1 ? '' : 's'} · ${formatMs(this.#totalMs)} total`;
    if (atBottom) scroller.scrollTop = scroller.scrollHeight;
  }

  #call(e: CallEntry): HTMLElement {
    const target = pathArg(e.args) ?? (typeof e.args.pattern === 'string' ? e.args.pattern : undefined);
    const firstLine = e.result.split('\n', 1)[0]!;
    const lines = e.result.split('\n').length;
    return h(
      'li',
      {
        class: `entry call ${e.ok ? 'ok' : 'error'}`,
        dataset: { id: String(e.id), tool: e.tool, source: e.source, ok: String(e.ok), ...(e.decision ? { decision: e.decision } : {}) },
      },
      h(
        'details',
        null,
        h(
          'summary',
          null,
          h('span', { class: 'id muted' }, `#${e.id}`),
          h('span', { class: `badge src-${e.source.replace(' ', '-')}` }, e.source),
          h('span', { class: 'tool' }, e.tool),
          h('span', { class: 'target' }, target ?? ''),
          h('span', { class: 'note' }, e.note ?? ''),
          e.decision ? h('span', { class: `badge decision ${e.decision}`, title: DECISION_TITLE[e.decision] }, e.decision) : null,
          h('span', { class: 'ms muted' }, formatMs(e.ms)),
          h(
            'span',
            { class: 'preview' },
            h('span', { class: 'status', 'aria-label': e.ok ? 'ok' : 'error' }, e.ok ? '✓' : '✗'),
            firstLine,
            lines > 1 ? h('span', { class: 'muted' }, `  (+${lines - 1} line${lines === 2 ? '' : 's'})`) : null,
          ),
        ),
        h(
          'div',
          { class: 'entry-body' },
          h('div', { class: 'label' }, 'Arguments'),
          h('pre', { class: 'args' }, JSON.stringify(e.args, null, 2)),
          h('div', { class: 'label' }, `Result · ${e.result.length.toLocaleString()} chars — exactly what the model sees`),
          h('pre', { class: `result${e.ok ? '' : ' error'}` }, e.result),
        ),
      ),
    );
  }

  #event(e: EventEntry): HTMLElement {
    return h(
      'li',
      { class: `entry event src-${e.source}`, dataset: { id: String(e.id), source: e.source } },
      h('span', { class: 'id muted' }, `#${e.id}`),
      h('span', { class: `badge src-${e.source.replace(' ', '-')}` }, e.source),
      h('span', { class: 'event-text' }, e.text),
    );
  }
}
