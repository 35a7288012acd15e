// Cost of persisting one small edit, in Chromium with IndexedDB: the incremental workspace store
// (createIndexedDBStore) next to the whole-snapshot adapter (createIndexedDBAdapter), on a
// 100 MB / 20,000-file workspace, with durability 'immediate'. For each: the time from the
// edit to durable (the writeFile call resolves after the 'strict' commit), the longest the
// page's main thread was blocked meanwhile (a MessageChannel ticker records its largest gap),
// and reopening the workspace to the first tool call answered (several times, alternating
// between the two, the median reported). `npm run bench` runs it last.
// Run: npm run bench:persist   (--tiny: 5 MB / 1,000 files, for CI)
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM } from '../scripts/chromium.mjs';

const root = join(import.meta.dirname, '..');
const tiny = process.argv.includes('--tiny');
const FILES = tiny ? 1_000 : 20_000;
const FILE_BYTES = 5_000; // 20,000 × 5,000 B = 100 MB
const EDITS = tiny ? 5 : 20;
const REOPENS = tiny ? 1 : 5;
// Before/after from one run: AGENTVFS_BASELINE=/path/to/other/dist adds that build's store as a row.
const BASELINE = process.env.AGENTVFS_BASELINE ?? null;

const browser = await chromium.launch(CHROMIUM);
try {
  const page = await browser.newPage();
  await page.route('http://bench.test/**', (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>bench</title>' });
    const file = BASELINE && path.startsWith('/baseline/') ? join(BASELINE, path.slice('/baseline/'.length)) : join(root, 'dist', path.slice(1));
    return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file) });
  });
  await page.goto('http://bench.test/');
  const { rows: out, skipped } = await page.evaluate(
    async ({ FILES, FILE_BYTES, EDITS, REOPENS, BASELINE }) => {
      const build = async (dir) => ({ ...(await import(`${dir}/index.js`)), ...(await import(`${dir}/persist.js`)) });
      const current = await build('');
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

      // The longest gap between ticks of a MessageChannel loop: how long the main thread was blocked.
      function stallMeter() {
        const { port1, port2 } = new MessageChannel();
        let last = performance.now();
        let worst = 0;
        let on = true;
        port1.onmessage = () => {
          const now = performance.now();
          worst = Math.max(worst, now - last);
          last = now;
          if (on) port2.postMessage(0);
        };
        port2.postMessage(0);
        return () => ((on = false), port1.close(), worst);
      }

      function corpus() {
        const files = {};
        let seed = 7;
        const letters = 'abcdefghijklmnopqrstuvwxyz     \n';
        for (let i = 0; i < FILES; i++) {
          let text = `// file ${i}\n`;
          while (text.length < FILE_BYTES) text += letters[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % letters.length];
          files[`/src/m${i % 200}/f${i}.ts`] = text;
        }
        return files;
      }
      const files = corpus();
      const edit = (i) => `// edited ${i}\n${'y'.repeat(2_000)}\n`;

      // Fill, then edit: the cost of a save.
      async function fill(name, makeStore, { createStateBackend, openPersistent }) {
        const t0 = performance.now();
        const { backend } = await openPersistent(createStateBackend({ files }), makeStore(), { durability: 'immediate' });
        await backend.flush();
        const firstSave = performance.now() - t0;
        const durable = [];
        const stalls = [];
        for (let i = 0; i < EDITS; i++) {
          const stop = stallMeter();
          const s = performance.now();
          await backend.writeFile(`/src/m${i % 200}/f${i}.ts`, edit(i));
          durable.push(performance.now() - s);
          stalls.push(stop());
        }
        await backend.close();
        return {
          name,
          firstSaveMs: firstSave,
          editToDurableMs: median(durable),
          editToDurableMaxMs: Math.max(...durable),
          longestStallMs: Math.max(...stalls),
          reopens: [],
        };
      }
      // Reopen, to the first tool call answered (what a page load pays).
      async function reopen(row, makeStore, { createStateBackend, createTools, openPersistent }) {
        const r0 = performance.now();
        const reopened = await openPersistent(createStateBackend(), makeStore());
        const answer = await createTools(reopened.backend).call('read_file', { path: '/src/m3/f3.ts', limit: 1 });
        row.reopens.push(performance.now() - r0);
        if (!answer.includes('edited 3')) throw new Error(`${row.name}: the reopened workspace lacks an edit: ${answer}`);
        await reopened.backend.close();
      }
      const stores = [
        ['incremental (createIndexedDBStore)', () => current.createIndexedDBStore({ database: 'bench-store' }), current],
        ['whole snapshot (createIndexedDBAdapter)', () => current.createIndexedDBAdapter({ database: 'bench-adapter' }), current],
      ];
      const skipped = [];
      if (BASELINE) {
        const baseline = await build('/baseline');
        // A build from before the incremental store has no row to add (the bench above still compares it).
        if (typeof baseline.createIndexedDBStore === 'function') {
          stores.push(['incremental, AGENTVFS_BASELINE build', () => baseline.createIndexedDBStore({ database: 'bench-baseline' }), baseline]);
        } else skipped.push('the AGENTVFS_BASELINE build has no createIndexedDBStore: no row for it');
      }
      const rows = [];
      for (const [name, make, modules] of stores) rows.push(await fill(name, make, modules));
      // Alternating, so all see the same machine: this VM's speed drifts within a run.
      for (let round = 0; round < REOPENS; round++) for (let i = 0; i < stores.length; i++) await reopen(rows[i], stores[i][1], stores[i][2]);
      for (const row of rows) row.reopenToFirstToolCallMs = median(row.reopens);
      return { rows, skipped };
    },
    { FILES, FILE_BYTES, EDITS, REOPENS, BASELINE },
  );
  console.log(
    `\nPersistence (bench/persist.mjs): Chromium, IndexedDB, durability 'immediate', ${FILES.toLocaleString('en')} files, ${((FILES * FILE_BYTES) / 1e6).toFixed(0)} MB; ${EDITS} edits of 2 KB; reopen: median of ${REOPENS}, alternating; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  );
  const ms = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);
  console.log('| | edit to durable (median / max) | longest main-thread stall | first save | reopen to first tool call |');
  console.log('|---|---|---|---|---|');
  for (const note of skipped) console.log(`(${note})`);
  for (const r of out) {
    console.log(
      `| ${r.name} | ${ms(r.editToDurableMs)} / ${ms(r.editToDurableMaxMs)} | ${ms(r.longestStallMs)} | ${ms(r.firstSaveMs)} | ${ms(r.reopenToFirstToolCallMs)} (${r.reopens.map((x) => x.toFixed(0)).join(', ')} ms) |`,
    );
  }
} finally {
  await browser.close();
}
