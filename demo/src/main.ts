// agentvfs playground: wires the workspace (backend in a Web Worker) to the panels.
//
// Layout: files over the checkpoint timeline (left) · file viewer (File | Changes) over
// transcript (centre) · Console / Agent / Large grep tabs (right); on narrower screens a
// switcher shows some of them at a time (ui/panes.ts). The status bar at the bottom holds
// the worker and save state and the messages. The files are saved to IndexedDB after every
// change (workspace.ts); a reload brings them back.
import { Timeline } from './timeline.ts';
import { AgentPanel } from './ui/agent-panel.ts';
import { ApprovalDialog } from './ui/approval-dialog.ts';
import { CheckpointsPanel } from './ui/checkpoints.ts';
import { clockTime, formatBytes, h } from './ui/dom.ts';
import { FileTree } from './ui/file-tree.ts';
import { FileViewer } from './ui/file-viewer.ts';
import { LargeGrep } from './ui/large-grep.ts';
import { Notices } from './ui/notices.ts';
import { Panes } from './ui/panes.ts';
import { SnapshotActions } from './ui/snapshot-actions.ts';
import { tabs } from './ui/tabs.ts';
import { ToolConsole } from './ui/tool-console.ts';
import { TranscriptView } from './ui/transcript-view.ts';
import { Transcript } from './transcript.ts';
import { SAVE_LOCATION, Workspace, type SaveStatus } from './workspace.ts';
import './styles.css';

const FOLLOWED_TOOLS = new Set(['read_file', 'edit_file', 'write_file']);

const ws = new Workspace();
const transcript = new Transcript();
const notices = new Notices();
const approval = new ApprovalDialog();
ws.sessionOptions = { approve: approval.approve, onEvent: transcript.onEvent };
transcript.personAsked = () => approval.asking;
const timeline = new Timeline(ws, transcript);
const viewer = new FileViewer(ws, timeline);
const tree = new FileTree(ws, (path) => {
  tree.select(path);
  panes.show('viewer');
  void viewer.open(path);
});
const snapshots = new SnapshotActions(ws, notices, transcript);
const toolConsole = new ToolConsole(ws, transcript, () => tree.paths());
const rollback = async (checkpoint: { id: string; label: string | null }, n: number, undo = true): Promise<void> => {
  const previous = timeline.head;
  const previousN = timeline.items.findIndex((c) => c.id === previous) + 1;
  try {
    await timeline.rollback(checkpoint.id);
  } catch (e) {
    notices.error(`Could not roll back to #${n}.`, (e as Error).message);
    return;
  }
  const what = `#${n} (${checkpoint.label ?? 'checkpoint'})`;
  transcript.event('workspace', `Rolled back to checkpoint ${what}: every file is as it was then. Later checkpoints are kept, so you can roll forward again.`);
  notices.info(
    `Rolled back to ${what}.`,
    undo && previous && previous !== checkpoint.id ? { label: 'Undo', run: () => void rollback(timeline.get(previous)!, previousN, false) } : undefined,
  );
};
const checkpoints = new CheckpointsPanel(timeline, {
  showChanges: (c) => {
    panes.show('viewer');
    viewer.showChanges(c.parent ?? c.id, c.id);
  },
  rollback: (c, n) => rollback(c, n),
  take: async () => {
    const c = await timeline.take('manual checkpoint', 'you');
    notices.info(`Checkpoint #${timeline.items.indexOf(c) + 1} taken.`);
  },
});
const agent = new AgentPanel(
  ws,
  transcript,
  (busy) => {
    snapshots.setDisabled(busy);
    checkpoints.setDisabled(busy);
    notices.setActionsDisabled(busy);
  },
  (run) => snapshots.reset(`Workspace reset to the sample project for ${run}.`),
);
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

// Reset, an upload or Undo of a reset replaced every file: a file they removed is closed, not shown as gone.
ws.onReplace(() => void viewer.closeIfGone().then((closed) => closed && tree.select(null)));

// The transcript marks the calls a rollback undid.
timeline.onChange(() => transcriptView.setUndone(timeline.undoneEntries()));

const workerStatus = h('span', { class: 'pill', 'data-testid': 'worker-status', 'data-state': 'starting' }, 'Starting worker…');
const saveStatus = h('span', { class: 'pill save', 'data-testid': 'save-status', 'data-state': 'idle', 'data-saves': '0', role: 'status' }, 'Not saved yet');
const showSave = (s: SaveStatus) => {
  saveStatus.dataset.state = s.state;
  saveStatus.dataset.saves = String(s.saves);
  const at = s.at ? clockTime(s.at) : '';
  saveStatus.textContent = {
    idle: 'Not saved yet',
    saving: 'Saving…',
    saved: `Saved locally${s.bytes !== undefined ? ` · ${formatBytes(s.bytes)} written` : ''} · ${at}`,
    following: 'Read-only: open in another tab',
    error: 'Save failed',
    off: 'Not saved (no IndexedDB)',
  }[s.state];
  const where = `IndexedDB (database "${SAVE_LOCATION.database}", workspace "${SAVE_LOCATION.workspace}")`;
  saveStatus.title =
    {
      error: `Files are kept in memory only: ${s.error ?? ''}`,
      off: `Files are kept in memory only: ${s.error ?? ''}`,
      following: `Another tab holds this workspace: this one shows its changes as they are saved and cannot write. Close that tab and this one takes over. (${where})`,
    }[s.state as 'error' | 'off' | 'following'] ??
    `Each change saves only the files it changed, in ${where}, 300 ms after it happens (at most 1 s under a stream of changes) and when the tab is hidden.`;
  // Read-only is said once, where it shows before any button is pressed (each write would fail with it).
  if (s.state === 'following' && readOnlyNotice === null) {
    readOnlyNotice = notices.warn(
      'Read-only: another tab holds this workspace.',
      'This tab shows its changes as they are saved; the agent, the console, Reset, uploads and rollbacks cannot write here. Close the other tab and this one takes over.',
      'notice-read-only',
    );
  } else if (s.state !== 'following' && readOnlyNotice !== null) {
    readOnlyNotice.remove();
    readOnlyNotice = null;
    notices.info('This tab holds the workspace now: it can write.');
  }
};
let readOnlyNotice: HTMLElement | null = null;
ws.onSaveStatus(showSave);
const sidebarPanels: HTMLElement[] = [tree.el, checkpoints.el];
/** The quickest way to see the tools at work: the scripted agent, run where its Stop is. */
const watchAgent = () => {
  panes.show('tools');
  rightTabs.show('agent');
  void agent.runScripted();
};
const transcriptView = new TranscriptView(transcript, watchAgent, notices);
const rightTabs = tabs('Tools', [
  { id: 'console', label: 'Tool console', panel: toolConsole.el },
  { id: 'agent', label: 'Agent', panel: agent.el },
  { id: 'large-grep', label: 'Large grep', panel: largeGrep.el },
]);

const layout = h(
  'main',
  { class: 'layout' },
  h('aside', { class: 'sidebar', id: 'pane-files', 'aria-label': 'Workspace' }, ...sidebarPanels),
  h('div', { class: 'center' }, viewer.el, transcriptView.el),
  h('section', { class: 'panel right', id: 'pane-tools', 'aria-label': 'Tools' }, rightTabs.el),
);
viewer.el.id = 'pane-viewer';
transcriptView.el.id = 'pane-transcript';
const panes = new Panes(layout, { files: 'pane-files', viewer: 'pane-viewer', transcript: 'pane-transcript', tools: 'pane-tools' });
// On a phone the transcript (and its "Watch the scripted agent") is a tab away, and the agent two:
// the first screen offers it here, until the transcript holds something (as the transcript's own offer).
const phoneIntro = h(
  'div',
  { class: 'phone-intro', 'data-testid': 'phone-intro' },
  h('span', null, 'Watch an agent use the file tools: offline, no model.'),
  h(
    'button',
    { type: 'button', class: 'primary', 'data-testid': 'phone-intro-run', onclick: () => ((phoneIntro.hidden = true), watchAgent()) },
    '▶ Run the agent',
  ),
);
transcript.onEntry(() => (phoneIntro.hidden = transcript.entries.length > 0));
layout.prepend(panes.el, phoneIntro); // rows of the layout grid (styles.css), shown only where not every panel fits (the intro: on phones)

document.body.append(
  h(
    'header',
    { class: 'topbar' },
    h(
      'div',
      { class: 'brand' },
      h('span', { class: 'logo', 'aria-hidden': 'true' }, '◆'),
      h('h1', null, 'agentvfs'),
      h('span', { class: 'tagline' }, 'playground', h('span', { class: 'tagline-more' }, ' · an in-memory filesystem and six file tools for agents')),
    ),
    h('span', { class: 'spacer' }),
    approval.toggle,
    snapshots.el,
  ),
  layout,
  h(
    'footer',
    { class: 'statusbar', 'data-testid': 'statusbar' },
    notices.alerts,
    h('div', { class: 'statusbar-line' }, workerStatus, saveStatus, notices.latest),
  ),
);

// For people poking around in devtools (and for the e2e tests): the live backend (set once started).
Object.assign(globalThis, {
  agentvfs: {
    get backend() {
      return ws.backend;
    },
    workspace: ws,
    transcript,
    timeline,
    largeGrep,
    session: () => ws.session(),
  },
});

// Save what is pending when the tab is hidden or goes away. Hidden (another tab, minimised,
// app switch) always has time to finish; on unload the browser may stop the page before
// the changed files have come back from the worker (see demo/README.md: what can be lost).
document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && void ws.flush().catch(() => {}));
addEventListener('pagehide', () => void ws.flush().catch(() => {}));

try {
  const started = await ws.start();
  if (started.status === 'corrupt') {
    notices.warn(
      'The files saved in this browser could not be restored, so the sample project was loaded.',
      `The damaged copy was kept aside in IndexedDB (database "${SAVE_LOCATION.database}", workspace "${SAVE_LOCATION.workspace}", under an aside key), not deleted. ${started.reason}`,
      'notice-corrupt',
    );
  } else if (started.status === 'unavailable') {
    notices.warn('Files will not survive a reload: IndexedDB is not available here.', started.reason, 'notice-no-storage');
  }
  showSave(ws.saveStatus);
  await timeline.take(started.status === 'restored' ? 'start: restored from this browser' : 'start: sample project', 'start');
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
