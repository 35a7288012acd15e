// The live file tree: listed once, then kept current from the worker's watch events (only
// created and modified files are stat'ed); files that changed flash. Keyboard: ↑/↓ move, → opens a folder, ← closes it, Enter/Space
// opens a file (WAI-ARIA tree pattern with a roving tabindex).
import type { WatchEvent } from 'agentvfs';
import type { TreeNode, Workspace } from '../workspace.ts';
import { treeStats } from '../workspace.ts';
import { clear, formatBytes, h, plural } from './dom.ts';

/** Takes `node` out of its parent's children. */
function detach(byPath: Map<string, TreeNode>, node: TreeNode): void {
  const parent = byPath.get(parentPath(node.path));
  if (parent?.children) parent.children = parent.children.filter((c) => c !== node);
  byPath.delete(node.path);
}

/** Puts `node` among its parent's children (directories first, then by name, as ls orders them). */
function attach(byPath: Map<string, TreeNode>, node: TreeNode): void {
  const parent = byPath.get(parentPath(node.path));
  if (!parent) return; // its parent's own event comes first in a commit; none means it is not shown
  const children = (parent.children ??= []);
  children.push(node);
  children.sort((a, b) => Number(b.isDir) - Number(a.isDir) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  byPath.set(node.path, node);
}

const parentPath = (path: string) => path.slice(0, Math.max(1, path.lastIndexOf('/')));
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Folders holding more files than this start collapsed (e.g. the 50 MB corpus). */
const AUTO_EXPAND_MAX = 50;

export class FileTree {
  readonly el: HTMLElement;
  #list: HTMLElement;
  #summary: HTMLElement;
  #expanded = new Set<string>(['/']);
  #seen = new Set<string>();
  #versions = new Map<string, number>();
  #root: TreeNode | null = null;
  #selected: string | null = null;
  #focused = '/';
  #refreshing: Promise<void> | null = null;
  #again = false;

  constructor(
    private ws: Workspace,
    private onOpen: (path: string) => void,
  ) {
    this.#list = h('ul', { class: 'tree', role: 'tree', 'aria-label': 'Files', onkeydown: (e: KeyboardEvent) => this.#key(e) });
    this.#summary = h('span', { class: 'muted', 'data-testid': 'tree-summary' });
    this.el = h(
      'section',
      { class: 'panel files', 'aria-labelledby': 'files-title' },
      h('header', { class: 'panel-head' }, h('h2', { id: 'files-title' }, 'Files'), this.#summary),
      h('div', { class: 'panel-body scroll' }, this.#list),
    );
    // The tree is listed once (refresh), then follows the worker's watch events.
    ws.onEvents((events) => void this.#apply(events));
  }

  select(path: string | null): void {
    this.#selected = path;
    if (path) {
      // Reveal it: open its parent folders.
      for (let i = path.indexOf('/', 1); i > 0; i = path.indexOf('/', i + 1)) this.#expanded.add(path.slice(0, i));
      this.#focused = path;
    }
    this.#render(false);
  }

  /** Re-reads the tree; concurrent calls coalesce into one more pass. */
  refresh(): Promise<void> {
    if (this.#refreshing) {
      this.#again = true;
      return this.#refreshing;
    }
    this.#refreshing = (async () => {
      do {
        this.#again = false;
        this.#root = await this.ws.tree();
        this.#render(true);
      } while (this.#again);
      this.#refreshing = null;
    })();
    return this.#refreshing;
  }

  /**
   * Applies one commit's events to the tree. A huge batch (a restore of a large snapshot) is
   * cheaper to list again than to stat file by file.
   */
  async #apply(events: WatchEvent[]): Promise<void> {
    if (!this.#root || this.#refreshing || events.length > 500) return void this.refresh();
    const byPath = new Map<string, TreeNode>();
    const index = (n: TreeNode) => {
      byPath.set(n.path, n);
      n.children?.forEach(index);
    };
    index(this.#root);
    const stats = new Map<string, Promise<TreeNode | null>>();
    for (const e of events) {
      if (e.type !== 'remove' && !e.isDir)
        stats.set(
          e.path,
          this.ws.backend.stat(e.path).catch(() => null),
        );
    }
    const fresh = new Map<string, TreeNode | null>();
    for (const [path, p] of stats) fresh.set(path, await p);
    for (const e of events) {
      if (e.type === 'remove' || e.type === 'rename') {
        const gone = byPath.get(e.oldPath ?? e.path);
        if (gone) detach(byPath, gone);
      }
      if (e.type === 'remove') continue;
      const node: TreeNode = fresh.get(e.path) ?? {
        ...(byPath.get(e.path) ?? {}),
        path: e.path,
        name: baseName(e.path),
        isDir: e.isDir,
        size: 0,
        mtimeMs: Date.now(),
        version: e.version ?? 0,
      };
      // A moved directory starts empty: each path beneath it has a rename event of its own, after this one.
      if (e.isDir) node.children = e.type === 'rename' ? [] : (byPath.get(e.path)?.children ?? []);
      const existing = byPath.get(e.path);
      if (existing) detach(byPath, existing);
      attach(byPath, node);
    }
    this.#render(true);
  }

  /** Every file path, for autocompletion. */
  paths(): string[] {
    const out: string[] = [];
    const walk = (n: TreeNode) => (n.isDir ? n.children?.forEach(walk) : out.push(n.path));
    if (this.#root) walk(this.#root);
    return out;
  }

  #render(fresh: boolean): void {
    const root = this.#root;
    if (!root) return;
    const changed = new Set<string>();
    if (fresh) {
      const versions = new Map<string, number>();
      const walk = (n: TreeNode) => {
        versions.set(n.path, n.version);
        if (!n.isDir && this.#versions.size > 0 && this.#versions.get(n.path) !== n.version) changed.add(n.path);
        if (n.isDir && !this.#seen.has(n.path)) {
          this.#seen.add(n.path);
          if (treeStats(n).files <= AUTO_EXPAND_MAX) this.#expanded.add(n.path);
        }
        n.children?.forEach(walk);
      };
      walk(root);
      this.#versions = versions;
    }
    const stats = treeStats(root);
    // Files and folders both: a checkpoint counts the paths it changed, and folders are paths too.
    // No-break spaces: a narrow head wraps between the counts, never between a number and its unit.
    const keep = (text: string) => text.replace(/ /g, '\u00a0');
    this.#summary.textContent = `${keep(plural(stats.files, 'file'))}, ${keep(plural(stats.folders, 'folder'))} · ${keep(formatBytes(stats.bytes))}`;
    const rows: HTMLElement[] = [];
    const visible: string[] = [];
    const walk = (node: TreeNode, depth: number) => {
      for (const child of node.children ?? []) {
        visible.push(child.path);
        rows.push(this.#row(child, depth, changed.has(child.path)));
        if (child.isDir && this.#expanded.has(child.path)) walk(child, depth + 1);
      }
    };
    walk(root, 0);
    if (!visible.includes(this.#focused)) this.#focused = visible[0] ?? '/';
    const hadFocus = this.#list.contains(document.activeElement);
    clear(this.#list, ...(rows.length ? rows : [h('li', { class: 'empty muted' }, 'No files. Upload a snapshot or reset.')]));
    for (const row of rows) row.tabIndex = row.dataset.path === this.#focused ? 0 : -1;
    if (hadFocus) this.#rowFor(this.#focused)?.focus();
  }

  #row(node: TreeNode, depth: number, changed: boolean): HTMLElement {
    const open = this.#expanded.has(node.path);
    return h(
      'li',
      {
        role: 'treeitem',
        class: `row${node.isDir ? ' dir' : ''}${node.path === this.#selected ? ' selected' : ''}${changed ? ' flash' : ''}`,
        dataset: { path: node.path },
        'aria-level': depth + 1,
        'aria-expanded': node.isDir ? String(open) : undefined,
        'aria-selected': node.isDir ? undefined : String(node.path === this.#selected),
        style: `--depth:${depth}`,
        title: node.path,
        onclick: () => this.#activate(node.path, node.isDir),
      },
      h('span', { class: 'twisty', 'aria-hidden': 'true' }, node.isDir ? (open ? '▾' : '▸') : ''),
      h('span', { class: `icon ${node.isDir ? 'icon-dir' : iconClass(node.name)}`, 'aria-hidden': 'true' }),
      h('span', { class: 'name' }, node.name),
      h('span', { class: 'size muted' }, node.isDir ? String(node.children?.length ?? 0) : formatBytes(node.size)),
    );
  }

  #activate(path: string, isDir: boolean): void {
    this.#focused = path;
    if (isDir) {
      if (this.#expanded.has(path)) this.#expanded.delete(path);
      else this.#expanded.add(path);
      this.#render(false);
      this.#rowFor(path)?.focus();
    } else {
      this.onOpen(path);
    }
  }

  #rowFor(path: string): HTMLElement | null {
    return this.#list.querySelector<HTMLElement>(`li[data-path="${CSS.escape(path)}"]`);
  }

  #key(e: KeyboardEvent): void {
    const rows = [...this.#list.querySelectorAll<HTMLElement>('li[data-path]')];
    const i = rows.findIndex((r) => r === document.activeElement);
    if (i < 0) return;
    const row = rows[i]!;
    const path = row.dataset.path!;
    const isDir = row.classList.contains('dir');
    const move = (to: HTMLElement | undefined) => {
      if (!to) return;
      row.tabIndex = -1;
      to.tabIndex = 0;
      to.focus();
      this.#focused = to.dataset.path!;
    };
    switch (e.key) {
      case 'ArrowDown':
        move(rows[i + 1]);
        break;
      case 'ArrowUp':
        move(rows[i - 1]);
        break;
      case 'Home':
        move(rows[0]);
        break;
      case 'End':
        move(rows.at(-1));
        break;
      case 'ArrowRight':
        if (isDir && !this.#expanded.has(path)) this.#activate(path, true);
        else move(rows[i + 1]);
        break;
      case 'ArrowLeft':
        if (isDir && this.#expanded.has(path)) this.#activate(path, true);
        else move(rows.find((r) => r.dataset.path === path.slice(0, path.lastIndexOf('/'))));
        break;
      case 'Enter':
      case ' ':
        this.#activate(path, isDir);
        break;
      default:
        return;
    }
    e.preventDefault();
  }
}

function iconClass(name: string): string {
  const ext = name.slice(name.lastIndexOf('.') + 1);
  return `icon-file icon-${ext}`;
}
