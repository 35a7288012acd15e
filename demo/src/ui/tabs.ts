// Accessible tabs (WAI-ARIA): ←/→/Home/End move between tabs, the panel follows.
import { h } from './dom.ts';

export interface Tab {
  id: string;
  label: string;
  panel: HTMLElement;
}

export function tabs(label: string, items: Tab[]): { el: HTMLElement; show(id: string): void } {
  const buttons = items.map((item, i) =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `tab-${item.id}`,
        'aria-controls': `panel-${item.id}`,
        'aria-selected': String(i === 0),
        tabIndex: i === 0 ? 0 : -1,
        'data-testid': `tab-${item.id}`,
        onclick: () => show(item.id),
      },
      item.label,
    ),
  );
  const panels = items.map((item, i) =>
    h('div', { role: 'tabpanel', id: `panel-${item.id}`, 'aria-labelledby': `tab-${item.id}`, class: 'tab-panel scroll', hidden: i !== 0 }, item.panel),
  );
  const show = (id: string, focus = false) => {
    items.forEach((item, i) => {
      const on = item.id === id;
      buttons[i]!.setAttribute('aria-selected', String(on));
      buttons[i]!.tabIndex = on ? 0 : -1;
      panels[i]!.hidden = !on;
      if (on && focus) buttons[i]!.focus();
    });
  };
  const list = h(
    'div',
    {
      role: 'tablist',
      'aria-label': label,
      class: 'tablist',
      onkeydown: (e: KeyboardEvent) => {
        const i = buttons.findIndex((b) => b === document.activeElement);
        if (i < 0) return;
        const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: items.length - 1 }[e.key];
        if (to === undefined) return;
        e.preventDefault();
        show(items[(to + items.length) % items.length]!.id, true);
      },
    },
    ...buttons,
  );
  return { el: h('div', { class: 'tabs' }, list, ...panels), show: (id) => show(id) };
}
