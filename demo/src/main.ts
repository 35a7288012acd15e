// agentvfs playground: wires the workspace (backend in a Web Worker) to the panels.
//
// Layout: files (left) · file viewer over transcript (centre) · Console / Agent / Large grep
// tabs (right). The Snapshots issue adds two things here, each a small change:
//  - a checkpoint timeline: push its element into `sidebarPanels` (under the files), fed by
//    transcript.onEntry + isMutation (backend.checkpoint), rolling back with backend.rollback
//    then ws.changed(); its diff view goes in the file viewer's header (see file-viewer.ts);
//  - IndexedDB persistence: in Workspace.start / a Workspace.onChange listener (see workspace.ts).
import { AgentPanel } from './ui/agent-panel.ts';
import { h } from './ui/dom.ts';
import { FileTree } from './ui/file-tree.ts';
import { FileViewer } from './ui/file-viewer.ts';
import { LargeGrep } from './ui/large-grep.ts';
import { Notices } from './ui/notices.ts';
import { SnapshotActions } from './ui/snapshot-actions.ts';
import { tabs } from './ui/tabs.ts';
import { ToolConsole } from './ui/tool-console.ts';
import { TranscriptView } from './ui/transcript-view.ts';
import { Transcript } from './transcript.ts';
import { Workspace } from './workspace.ts';
import './styles.css';

const FOLLOWED_TOOLS = new Set(['read_file', 'edit_file', 'write_file']);

const ws = new Workspace();
const transcript = new Transcript();
const notices = new Notices();
const viewer = new FileViewer(ws);
const tree = new FileTree(ws, (path) => {
  tree.select(path);
  void viewer.open(path);
});
const snapshots = new SnapshotActions(ws, notices);
const toolConsole = new ToolConsole(ws, transcript, () => tree.paths());
const agent = new AgentPanel(ws, transcript, (busy) => snapshots.setDisabled(busy), () => snapshots.reset());
const largeGrep = new LargeGrep(ws, transcript);

// While an agent works, the viewer follows the file it touches.
transcript.onEntry((entry) => {
  if (entry?.kind !== 'call' || (entry.source !== 'agent' && entry.source !== 'model')) return;
  const path = entry.args.path;
  if (typeof path === 'string' && FOLLOWED_TOOLS.has(entry.tool) && entry.ok) {
    tree.select(path);
    void viewer.open(path);
  }
});

const workerStatus = h('span', { class: 'pill', 'data-testid': 'worker-status', 'data-state': 'starting' }, 'Starting worker…');
const sidebarPanels: HTMLElement[] = [tree.el];
const transcriptView = new TranscriptView(transcript, () => {
  rightTabs.show('agent');
  void agent.runScripted();
});
const rightTabs = tabs('Tools', [
  { id: 'console', label: 'Tool console', panel: toolConsole.el },
  { id: 'agent', label: 'Agent', panel: agent.el },
  { id: 'large-grep', label: 'Large grep', panel: largeGrep.el },
]);

document.body.append(
  h(
    'header',
    { class: 'topbar' },
    h('div', { class: 'brand' }, h('span', { class: 'logo', 'aria-hidden': 'true' }, '◆'), h('h1', null, 'agentvfs'), h('span', { class: 'tagline' }, 'playground · an in-memory filesystem and six file tools for agents')),
    workerStatus,
    h('span', { class: 'spacer' }),
    snapshots.el,
  ),
  h(
    'main',
    { class: 'layout' },
    h('aside', { class: 'sidebar', 'aria-label': 'Workspace' }, ...sidebarPanels),
    h('div', { class: 'center' }, viewer.el, transcriptView.el),
    h('section', { class: 'panel right', 'aria-label': 'Tools' }, rightTabs.el),
  ),
  notices.el,
);

// For people poking around in devtools (and for the e2e tests): the live backend.
Object.assign(globalThis, { agentvfs: { backend: ws.backend, workspace: ws, transcript, largeGrep, session: () => ws.session() } });

try {
  await ws.start();
  await tree.refresh();
  workerStatus.textContent = 'Backend in a Web Worker';
  workerStatus.dataset.state = 'ready';
  tree.select('/src/cart.ts');
  await viewer.open('/src/cart.ts');
} catch (e) {
  workerStatus.textContent = 'Worker failed';
  workerStatus.dataset.state = 'failed';
  notices.error('The backend worker could not start.', (e as Error).message);
}
