// Messages, docked in the status bar at the bottom of the page so they never cover a panel.
// An outcome ("Restored x.avfs") is one line: the newest replaces the one before, and its
// action (Undo) goes away after a while. A warning (role="status") or an error (role="alert",
// focused) stays above the status line until dismissed; an error also clears the outcome before it.
import { h } from './dom.ts';

const ACTION_MS = 8000;
const FRESH_MS = 4000;

export class Notices {
  /** The latest outcome (one line, in the status line). */
  readonly latest: HTMLElement;
  /** Warnings and errors (above the status line). */
  readonly alerts: HTMLElement;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** While an agent runs, an outcome's action (an Undo that rolls the files back) waits. */
  #actionsDisabled = false;
  /** What ends the latest outcome's action. */
  #expire = () => {};

  constructor() {
    this.latest = h('div', { class: 'notices latest', 'aria-live': 'polite' });
    this.alerts = h('div', { class: 'notices alerts' });
  }

  info(text: string, action?: { label: string; run: () => void }): void {
    clearTimeout(this.#timer);
    const note = h('div', { class: 'notice info', 'data-testid': 'notice-info', title: text }, h('span', { class: 'notice-text' }, text));
    const button = action
      ? h('button', { type: 'button', class: 'ghost small', 'data-notice-action': '', onclick: () => (button?.remove(), action.run()) }, action.label)
      : null;
    if (button) {
      button.disabled = this.#actionsDisabled;
      note.append(button);
    }
    this.latest.replaceChildren(note);
    // It stays (dimmed) until the next one: a reader who looked away can still see what happened.
    // Its action stays while it has focus or the pointer (WCAG 2.2.1): one is never taken away mid-reach.
    // An action waiting for a run to end keeps its whole time for after it (setActionsDisabled).
    const expire = () => {
      if (button && (this.#actionsDisabled || button === document.activeElement || button.matches(':hover'))) {
        this.#timer = setTimeout(expire, 1000);
        return;
      }
      button?.remove();
      note.classList.add('stale');
    };
    this.#expire = expire;
    this.#timer = setTimeout(expire, action ? ACTION_MS : FRESH_MS);
  }

  setActionsDisabled(disabled: boolean): void {
    this.#actionsDisabled = disabled;
    const buttons = this.latest.querySelectorAll<HTMLButtonElement>('[data-notice-action]');
    for (const button of buttons) button.disabled = disabled;
    if (!disabled && buttons.length > 0) {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(this.#expire, ACTION_MS);
    }
  }

  /**
   * A warning that stays until dismissed but does not take focus or block anything
   * (e.g. a saved copy that could not be restored at start).
   */
  warn(title: string, detail: string, testId = 'notice-warn'): HTMLElement {
    const note = h(
      'div',
      { class: 'notice warn', role: 'status', 'data-testid': testId },
      h('div', null, h('strong', null, title), h('p', null, detail)),
      h('button', { type: 'button', class: 'ghost small', 'aria-label': 'Dismiss', onclick: () => note.remove() }, 'Dismiss'),
    );
    this.alerts.append(note);
    return note;
  }

  error(title: string, detail: string): void {
    for (const n of this.alerts.querySelectorAll('.notice.error')) n.remove();
    // The error is the latest message: an earlier outcome ("Restored a.avfs") beside it would
    // read as this one's (a failed upload changed nothing, and restored nothing).
    clearTimeout(this.#timer);
    this.latest.replaceChildren();
    const note = h(
      'div',
      { class: 'notice error', role: 'alert', 'data-testid': 'notice-error' },
      h('div', null, h('strong', null, title), h('p', null, detail)),
      h('button', { type: 'button', class: 'ghost small', 'aria-label': 'Dismiss', onclick: () => note.remove() }, 'Dismiss'),
    );
    this.alerts.append(note);
    note.querySelector('button')!.focus();
  }
}
