// A tiny hyperscript helper: the demo needs no framework.
type Child = Node | string | number | null | undefined | false;
type Props = Record<string, unknown>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    } else if (key === 'class') {
      el.className = String(value);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (key in el && !key.includes('-') && key !== 'list' && key !== 'form') {
      (el as unknown as Record<string, unknown>)[key] = value;
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'number' ? String(child) : child);
  }
}

export function clear(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatMs(ms: number): string {
  // (a page's clock is coarsened to 0.1 ms or more: no digits past it)
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${ms.toFixed(0)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** A time of day, 24-hour (the same everywhere on the page: save state, timeline, viewer). */
export function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}

/**
 * A snake_case name (a tool's, e.g. str_replace_based_edit_tool) with a line-break opportunity
 * after each underscore: a narrow column wraps it between its words, never inside one.
 */
export function breakAtUnderscores(name: string): Child[] {
  return name.split(/(?<=_)/).flatMap((part, i) => (i === 0 ? [part] : [document.createElement('wbr'), part]));
}

/** "1 file", "2 files". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether focus is on nothing (the page), or on a control that can no longer take it. */
export function focusLost(): boolean {
  const active = document.activeElement as HTMLButtonElement | null;
  return active === null || active === document.body || !canFocus(active);
}

/** Shown (no hidden ancestor, laid out) and not disabled. */
export function canFocus(element: HTMLElement): boolean {
  return !(element as HTMLButtonElement).disabled && element.getClientRects().length > 0;
}
