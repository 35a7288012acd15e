// The checkpoint timeline panel (under Files): newest first, each row labelled with the tool
// call or action that made it, its time and how many paths it changed. Click a row (or Enter)
// to see what that step changed in the viewer's Changes view; ↶ rolls every file back to it.
// Keyboard: ↑/↓/Home/End move between rows, Enter shows the changes, Tab reaches ↶.
import type { Checkpoint, Timeline } from '../timeline.ts';
import { clear, clockTime, h, plural } from './dom.ts';

const changed = (paths: number) => plural(paths, 'path');

/**
 * The label with each path in a span of its own (it moves to the next line whole) and a
 * line-break opportunity after each inner `/`: a long path wraps between folders, not mid-name.
 */
const breakable = (label: string): (string | HTMLElement)[] =>
  label
    .split(/(\/\S*)/)
    .map((part, i) =>
      i % 2 === 0 ? part : h('span', { class: 'cp-path' }, ...part.split(/(?<=.\/)/).flatMap((piece, j) => (j === 0 ? [piece] : [h('wbr'), piece]))),
    );

export class CheckpointsPanel {
  readonly el: HTMLElement;
  #list: HTMLElement;
  #count: HTMLElement;
  #take: HTMLButtonElement;
  #focused: string | null = null;

  constructor(
    private timeline: Timeline,
    private actions: {
      /** Show what checkpoint `id` changed (from its parent). */
      showChanges: (checkpoint: Checkpoint, index: number) => void;
      rollback: (checkpoint: Checkpoint, index: number) => Promise<void>;
      take: () => Promise<void>;
    },
  ) {
    this.#list = h('ol', {
      class: 'checkpoints',
      'data-testid': 'checkpoints',
      'aria-label': 'Checkpoints, newest first',
      onkeydown: (e: KeyboardEvent) => this.#key(e),
    });
    this.#count = h('span', { class: 'muted', 'data-testid': 'checkpoint-count' });
    this.#take = h(
      'button',
      {
        type: 'button',
        class: 'ghost small',
        'data-testid': 'checkpoint-take',
        title: 'Take a checkpoint of every file now',
        'aria-label': 'Take a checkpoint now',
        onclick: () => void this.#run(this.#take, () => this.actions.take()),
      },
      '+ Take',
    );
    this.el = h(
      'section',
      { class: 'panel checkpoints-panel', 'aria-labelledby': 'checkpoints-title' },
      h('header', { class: 'panel-head' }, h('h2', { id: 'checkpoints-title' }, 'Checkpoints'), this.#count, h('span', { class: 'spacer' }), this.#take),
      h('div', { class: 'panel-body scroll' }, this.#list),
    );
    timeline.onChange(() => this.#render());
    this.#render();
  }

  setDisabled(disabled: boolean): void {
    this.el.toggleAttribute('data-busy', disabled);
    this.#take.disabled = disabled;
    for (const b of this.#list.querySelectorAll<HTMLButtonElement>('button.cp-rollback')) b.disabled = disabled;
  }

  #render(): void {
    const items = this.timeline.items;
    const head = this.timeline.head;
    const history = this.timeline.history();
    const busy = this.el.hasAttribute('data-busy');
    this.#count.textContent = items.length ? String(items.length) : '';
    const hadFocus = this.#list.contains(document.activeElement);
    // Keyboard focus enters at the newest row unless the user is moving within the list.
    if (!hadFocus || !items.some((c) => c.id === this.#focused)) this.#focused = items.at(-1)?.id ?? null;
    if (items.length === 0) {
      clear(this.#list, h('li', { class: 'placeholder' }, 'A checkpoint is taken after every tool call that writes.'));
      return;
    }
    const rows = items
      .map((c, i) => {
        const n = i + 1;
        const label = c.label ?? 'checkpoint';
        const time = clockTime(c.createdAt);
        const tab = c.id === this.#focused ? 0 : -1;
        const current = c.id === head;
        const undone = !history.has(c.id);
        return h(
          'li',
          { class: `checkpoint${current ? ' current' : ''}${undone ? ' undone' : ''}`, dataset: { id: c.id, index: String(n), current: String(current) } },
          h(
            'button',
            {
              type: 'button',
              class: 'cp-main',
              tabIndex: tab,
              'data-testid': 'checkpoint-open',
              title: c.parent ? 'Show what this step changed' : 'The first checkpoint',
              // The visible words first, in their order (WCAG 2.5.3: a voice user says what they see).
              'aria-label': `${[`#${n}`, label, current ? 'now' : null, c.source, time, c.parent ? `${changed(c.changedPaths)} changed` : null].filter((w) => w !== null).join(' ')}${undone ? ', rolled back' : ''}. Show its changes.`,
              onclick: () => {
                this.#focused = c.id;
                this.actions.showChanges(c, n);
              },
              onfocus: () => (this.#focused = c.id),
            },
            h('span', { class: 'cp-line' }, h('span', { class: 'cp-n muted' }, `#${n}`), h('span', { class: 'cp-label', title: label }, ...breakable(label))),
            h(
              'span',
              { class: 'cp-meta' },
              current ? h('span', { class: 'now-chip' }, 'now') : null,
              h('span', { class: `badge src-${c.source.replace(' ', '-')}` }, c.source),
              h('span', { class: 'muted', title: new Date(c.createdAt).toLocaleString() }, time),
              // The first checkpoint has nothing to compare with: its count would be every path.
              c.parent
                ? h(
                    'span',
                    { class: 'muted', title: `${changed(c.changedPaths)} (files and folders) created, changed or removed since the checkpoint before it` },
                    changed(c.changedPaths),
                  )
                : null,
            ),
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'cp-rollback ghost small',
              tabIndex: tab,
              disabled: busy,
              'data-testid': 'checkpoint-rollback',
              title: `Roll every file back to #${n}`,
              'aria-label': `Roll back to #${n} ${label}`,
              onclick: (e: Event) => void this.#run(e.currentTarget as HTMLButtonElement, () => this.actions.rollback(c, n)),
            },
            '↶',
          ),
        );
      })
      .reverse();
    clear(this.#list, ...rows);
    if (hadFocus) this.#list.querySelector<HTMLElement>(`li[data-id="${this.#focused}"] .cp-main`)?.focus();
  }

  #key(e: KeyboardEvent): void {
    const mains = [...this.#list.querySelectorAll<HTMLButtonElement>('.cp-main')];
    const i = mains.findIndex((b) => b === document.activeElement || b.parentElement?.contains(document.activeElement));
    if (i < 0) return;
    const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: mains.length - 1 }[e.key];
    if (to === undefined || to < 0 || to >= mains.length) return;
    e.preventDefault();
    const row = mains[to]!.parentElement!;
    this.#focused = row.dataset.id ?? null;
    for (const b of this.#list.querySelectorAll<HTMLButtonElement>('button')) b.tabIndex = b.parentElement === row ? 0 : -1;
    mains[to]!.focus();
  }

  async #run(button: HTMLButtonElement, work: () => Promise<void>): Promise<void> {
    button.disabled = true;
    try {
      await work();
    } finally {
      if (button.isConnected) button.disabled = this.el.hasAttribute('data-busy');
    }
  }
}
