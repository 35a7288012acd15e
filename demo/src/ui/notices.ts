// Toasts for outcomes, and a persistent error banner (role="alert") for failures.
import { h } from './dom.ts';

export class Notices {
  readonly el: HTMLElement;

  constructor() {
    this.el = h('div', { class: 'notices', 'aria-live': 'polite' });
  }

  info(text: string, action?: { label: string; run: () => void }): void {
    const note = h('div', { class: 'notice info', 'data-testid': 'notice-info' }, h('span', null, text));
    if (action) note.append(h('button', { type: 'button', class: 'ghost small', onclick: () => (note.remove(), action.run()) }, action.label));
    this.el.append(note);
    setTimeout(() => note.remove(), action ? 8000 : 4000);
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
    this.el.append(note);
    return note;
  }

  error(title: string, detail: string): void {
    this.el.querySelectorAll('.notice.error').forEach((n) => n.remove());
    const note = h(
      'div',
      { class: 'notice error', role: 'alert', 'data-testid': 'notice-error' },
      h('div', null, h('strong', null, title), h('p', null, detail)),
      h('button', { type: 'button', class: 'ghost small', 'aria-label': 'Dismiss', onclick: () => note.remove() }, 'Dismiss'),
    );
    this.el.append(note);
    note.querySelector('button')!.focus();
  }
}
