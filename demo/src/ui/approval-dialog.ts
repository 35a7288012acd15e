// "Ask before writes": while the switch is on, every write or edit of every agent session waits
// for a person, who sees the diff of exactly what would be written (agentvfs's approve(),
// docs/approval.md) and answers Allow / Always / Edit / Deny (with a reason the model reads).
// Questions from calls running at once are shown one after another.
import type { ApprovalDecision, ApprovalRequest } from 'agentvfs';
import { isRunning, noteWriteCancelled, stopRun } from '../agent/stopped.ts';
import { renderSplit, renderUnified } from './request-diff.ts';
import { canFocus, clear, focusLost, h } from './dom.ts';

/** Side by side when the dialog has room for two columns of code. */
const SIDE_BY_SIDE = '(min-width: 900px)';

export class ApprovalDialog {
  /** The switch, for the top bar. */
  readonly toggle: HTMLElement;
  readonly #dialog: HTMLDialogElement;
  readonly #checkbox: HTMLInputElement;
  readonly #title: HTMLElement;
  readonly #diff: HTMLElement;
  readonly #editor: HTMLTextAreaElement;
  readonly #reason: HTMLInputElement;
  readonly #allow: HTMLButtonElement;
  readonly #always: HTMLButtonElement;
  readonly #edit: HTMLButtonElement;
  readonly #viewButtons: HTMLButtonElement[];
  #view: 'unified' | 'split' = matchMedia(SIDE_BY_SIDE).matches ? 'split' : 'unified';
  #answer: ((decision: ApprovalDecision) => void) | null = null;
  #stopAgent: HTMLButtonElement;
  #unlisten = () => {};
  #editing = false;
  /** What had focus when the question opened. */
  #opener: Element | null = null;
  #request: ApprovalRequest | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  constructor() {
    this.#checkbox = h('input', { type: 'checkbox', 'data-testid': 'ask-before-writes' });
    this.toggle = h(
      'label',
      { class: 'ask-toggle', title: 'Every write or edit by an agent waits for you, showing the diff of what would be written' },
      this.#checkbox,
      'Ask before writes',
    );
    this.#title = h('h2', { id: 'approval-title' });
    this.#diff = h('div', { class: 'approval-diff', 'data-testid': 'approval-diff' });
    this.#editor = h('textarea', {
      class: 'approval-editor',
      'data-testid': 'approval-content',
      spellcheck: false,
      // Code as it is: lines unwrapped, in the viewer's font.
      wrap: 'off',
      rows: 14,
      'aria-label': 'Content to write',
    });
    this.#editor.hidden = true;
    this.#reason = h('input', {
      type: 'text',
      'data-testid': 'approval-reason',
      placeholder: 'Reason (the model reads it)',
      'aria-label': 'Reason for denying',
    });
    this.#allow = h('button', { type: 'button', class: 'primary', 'data-testid': 'approval-allow', onclick: () => this.#allowOnce() }, 'Allow');
    this.#always = h(
      'button',
      {
        type: 'button',
        'data-testid': 'approval-always',
        title: 'Allow, and stop asking for this agent session',
        onclick: () => this.#settle({ allow: true, always: true }),
      },
      'Always',
    );
    this.#edit = h(
      'button',
      { type: 'button', 'data-testid': 'approval-edit', onclick: () => (this.#editing ? this.#stopEditing() : this.#startEditing()) },
      'Edit',
    );
    const deny = h('button', { type: 'button', class: 'danger', 'data-testid': 'approval-deny', onclick: () => this.#deny() }, 'Deny');
    // Ends the agent's run: this call is cancelled (nothing written) and no further call is made.
    this.#stopAgent = h(
      'button',
      {
        type: 'button',
        class: 'ghost',
        'data-testid': 'approval-stop',
        title: 'Stop the agent: nothing is written',
        onclick: () => stopRun(),
      },
      'Stop agent',
    );
    this.#viewButtons = (['unified', 'split'] as const).map((view) =>
      h(
        'button',
        { type: 'button', class: 'ghost small', 'data-view': view, 'aria-pressed': 'false', onclick: () => this.#show(view) },
        view === 'unified' ? 'Unified' : 'Side by side',
      ),
    );
    this.#dialog = h(
      'dialog',
      { class: 'approval', 'data-testid': 'approval-dialog', 'aria-labelledby': 'approval-title' },
      h(
        'header',
        { class: 'approval-head' },
        this.#title,
        h('span', { class: 'spacer' }),
        h('span', { class: 'segment approval-views' }, ...this.#viewButtons),
      ),
      this.#diff,
      this.#editor,
      h(
        'footer',
        { class: 'approval-actions' },
        this.#reason,
        h('span', { class: 'approval-buttons' }, this.#stopAgent, deny, this.#edit, this.#always, this.#allow),
      ),
    );
    // Escape leaves the editor first (what was typed there is dropped, nothing else); else it
    // closes the question: a "no", with the reason typed, if any.
    this.#dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      if (this.#editing) return this.#stopEditing();
      const reason = this.#reason.value.trim();
      this.#settle({ allow: false, reason: reason || 'The user closed the question without answering.' });
    });
    document.body.append(this.#dialog);
  }

  /** True while "Ask before writes" is on (otherwise approve() allows every write unasked). */
  get asking(): boolean {
    return this.#checkbox.checked;
  }

  /** The approve() every agent session of the page is made with. */
  readonly approve = (request: ApprovalRequest): ApprovalDecision | Promise<ApprovalDecision> => {
    if (!this.#checkbox.checked) return { allow: true };
    const asked = this.#queue.then(() => this.#ask(request));
    this.#queue = asked.catch(() => {});
    return asked;
  };

  #ask(request: ApprovalRequest): Promise<ApprovalDecision> {
    // The switch may have been turned off while this question waited for an earlier one.
    if (!this.#checkbox.checked) return Promise.resolve({ allow: true });
    // Its call was stopped while it waited: nothing to ask (the answer would not count).
    if (request.signal?.aborted) return Promise.resolve({ allow: false });
    // Stopped while the question is open: close it (the call ends ECANCELED, nothing written).
    // Removed once answered: one run's signal serves all its questions.
    const stopped = () => {
      if (this.#request !== request) return;
      noteWriteCancelled();
      this.#settle({ allow: false });
    };
    request.signal?.addEventListener('abort', stopped, { once: true });
    this.#unlisten = () => request.signal?.removeEventListener('abort', stopped);
    this.#request = request;
    // A question of a run's call (it has a signal), not one of the tool console's.
    this.#stopAgent.hidden = !(isRunning() && request.signal !== undefined);
    this.#editing = false;
    const verb = request.action === 'remove' ? 'remove' : request.created ? 'create' : 'change';
    if (request.from !== undefined) {
      clear(this.#title, `Allow ${request.tool} to move `, h('span', { class: 'mono' }, request.from), ' to ', h('span', { class: 'mono' }, request.path), '?');
    } else {
      clear(this.#title, `Allow ${request.tool} to ${verb} ${request.directory ? 'the directory ' : ''}`, h('span', { class: 'mono' }, request.path), '?');
    }
    this.#editor.hidden = true;
    this.#editor.value = request.content ?? '';
    this.#edit.hidden = request.content === undefined;
    this.#reason.value = '';
    this.#allow.textContent = 'Allow';
    this.#edit.textContent = 'Edit';
    this.#always.hidden = false;
    this.#show(matchMedia(SIDE_BY_SIDE).matches ? this.#view : 'unified');
    this.#opener = document.activeElement;
    this.#dialog.showModal();
    this.#allow.focus();
    return new Promise((resolve) => (this.#answer = resolve));
  }

  #show(view: 'unified' | 'split'): void {
    this.#view = view;
    for (const b of this.#viewButtons) b.setAttribute('aria-pressed', String(b.dataset.view === view));
    if (this.#request) clear(this.#diff, view === 'split' ? renderSplit(this.#request.diff) : renderUnified(this.#request.diff));
    this.#diff.dataset.view = view;
  }

  #startEditing(): void {
    this.#editing = true;
    this.#editor.hidden = false;
    this.#always.hidden = true;
    this.#allow.textContent = 'Write my version';
    this.#edit.textContent = 'Cancel edit';
    this.#editor.focus();
  }

  /** Back to the proposed content: the question stands as it was asked. */
  #stopEditing(): void {
    this.#editing = false;
    this.#editor.hidden = true;
    this.#editor.value = this.#request?.content ?? '';
    this.#always.hidden = false;
    this.#allow.textContent = 'Allow';
    this.#edit.textContent = 'Edit';
    this.#edit.focus();
  }

  #allowOnce(): void {
    // A textarea gives its text with LF line breaks: a CRLF file gets the person's text in CRLF (a
    // file of mixed line endings cannot be told apart: compared, and written, as the textarea gives it).
    const proposed = this.#request?.content ?? '';
    const allCrlf = proposed.includes('\r\n') && !/(^|[^\r])\n/.test(proposed);
    const written = allCrlf ? this.#editor.value.replace(/\r?\n/g, '\r\n') : this.#editor.value;
    // The proposed content, unchanged, is a plain "allow": the model is not told the person changed it.
    const changed = this.#editing && written !== proposed;
    this.#settle(changed ? { allow: true, content: written } : { allow: true });
  }

  #deny(): void {
    const reason = this.#reason.value.trim();
    this.#settle(reason ? { allow: false, reason } : { allow: false });
  }

  #settle(decision: ApprovalDecision): void {
    this.#unlisten();
    this.#unlisten = () => {};
    const answer = this.#answer;
    this.#answer = null;
    this.#request = null;
    this.#dialog.close();
    // The dialog gives focus back to what had it, unless that is disabled now (a Run button while
    // its call or run goes on): then to a shown control marked to take it (a run's Stop or its
    // status), and to the button itself once it is enabled again.
    const opener = this.#opener as HTMLButtonElement | null;
    if (opener?.isConnected && opener.disabled) {
      const back = new MutationObserver(() => {
        if (opener.disabled) return;
        back.disconnect();
        if (focusLost()) opener.focus();
      });
      back.observe(opener, { attributes: true, attributeFilter: ['disabled'] });
    }
    if (focusLost()) [...document.querySelectorAll<HTMLElement>('[data-focus-after-dialog]')].find(canFocus)?.focus();
    answer?.(decision);
  }
}
