// Which panels a screen too narrow for all of them shows. Wide (>= 1180 px): all four side by
// side, no switcher. Medium (700-1179 px): Files and Checkpoints stay on the left; a switcher
// picks the viewer and transcript, or the tools. Narrow (< 700 px): one panel at a time,
// picked by a switcher with four tabs. Layout is CSS (styles.css, keyed on data-view); this
// only remembers what was asked for and says which tab is current.
import { h } from './dom.ts';

export type View = 'files' | 'viewer' | 'transcript' | 'tools';
type Mode = 'wide' | 'medium' | 'narrow';

const MEDIUM = '(max-width: 1179px)';
const NARROW = '(max-width: 699px)';

/** The tabs each mode offers, and where a request for a view lands in it. */
const OFFERED: Record<Mode, View[]> = { wide: [], medium: ['viewer', 'tools'], narrow: ['files', 'viewer', 'transcript', 'tools'] };
const shownFor = (mode: Mode, view: View): View => (mode === 'medium' && view !== 'tools' ? 'viewer' : view);

export class Panes {
  readonly el: HTMLElement;
  #requested: View = 'viewer';
  #buttons: Map<View, HTMLButtonElement>;
  #medium = matchMedia(MEDIUM);
  #narrow = matchMedia(NARROW);

  /** `layout` gets data-view; `panes` are the elements each tab controls (their ids). */
  constructor(
    private layout: HTMLElement,
    panes: Record<View, string>,
  ) {
    const tab = (view: View, ...label: (string | Node)[]) =>
      h(
        'button',
        { type: 'button', role: 'tab', id: `view-${view}`, 'aria-controls': panes[view], 'data-testid': `view-${view}`, onclick: () => this.show(view, true) },
        ...label,
      );
    this.#buttons = new Map<View, HTMLButtonElement>([
      ['files', tab('files', 'Files')],
      ['viewer', tab('viewer', 'Viewer', h('span', { class: 'medium-only' }, ' & transcript'))],
      ['transcript', tab('transcript', 'Transcript')],
      ['tools', tab('tools', 'Tools')],
    ]);
    this.el = h('nav', { class: 'views', role: 'tablist', 'aria-label': 'Panels', onkeydown: (e: KeyboardEvent) => this.#key(e) }, ...this.#buttons.values());
    this.#medium.addEventListener('change', () => this.#apply());
    this.#narrow.addEventListener('change', () => this.#apply());
    this.#apply();
  }

  get mode(): Mode {
    return this.#narrow.matches ? 'narrow' : this.#medium.matches ? 'medium' : 'wide';
  }

  /** Brings `view` forward (a no-op where everything is on screen). */
  show(view: View, focus = false): void {
    this.#requested = view;
    this.#apply();
    if (focus) this.#buttons.get(shownFor(this.mode, view))?.focus();
  }

  #apply(): void {
    const mode = this.mode;
    const shown = shownFor(mode, this.#requested);
    this.layout.dataset.view = shown;
    for (const [view, button] of this.#buttons) {
      const offered = OFFERED[mode].includes(view);
      button.hidden = !offered;
      button.setAttribute('aria-selected', String(view === shown));
      button.tabIndex = view === shown ? 0 : -1;
    }
  }

  #key(e: KeyboardEvent): void {
    const offered = OFFERED[this.mode];
    const i = offered.findIndex((v) => this.#buttons.get(v) === document.activeElement);
    if (i < 0) return;
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: offered.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.show(offered[(to + offered.length) % offered.length]!, true);
  }
}
