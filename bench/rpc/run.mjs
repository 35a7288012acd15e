// Round-trip latency of the worker facade next to a bare Comlink call and a bare postMessage
// echo, in Node (worker_threads) and in Chromium (a module Web Worker). Run: npm run bench:rpc
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { wrap } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { CHROMIUM } from '../../scripts/chromium.mjs';
import { measure } from './measure.js';

const here = import.meta.dirname;
const root = join(here, '../..');
// AGENTVFS_DIST=/path/to/an/old/dist compares another build (e.g. before a change) under the same harness.
const dist = process.env.AGENTVFS_DIST ? resolve(process.env.AGENTVFS_DIST) : join(root, 'dist');
const { createTools } = await import(pathToFileURL(join(dist, 'index.js')).href);
const { connect } = await import(pathToFileURL(join(dist, 'client.js')).href);
const quick = process.argv.includes('--tiny');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7); // --only=node or --only=chromium
const opts = quick ? { sequential: 200, batches: 3, warmup: 200 } : {};

/** `echo()`: an integer there and back; `echo2k()`: a small request answered with a 2 KB string. */
function echoOver(worker) {
  let next = 0;
  const waiting = new Map();
  const onMessage = (m) => {
    const id = typeof m === 'number' ? m : m.id;
    waiting.get(id)?.();
    waiting.delete(id);
  };
  if (worker.on) worker.on('message', onMessage);
  else worker.onmessage = (e) => onMessage(e.data);
  const send = (payload) => () =>
    new Promise((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      worker.postMessage(payload(id));
    });
  return { echo: send((id) => id), echo2k: send((id) => ({ id })) };
}

async function node() {
  const echoWorker = new Worker(join(here, 'echo.worker.mjs'));
  const comlinkWorker = new Worker(join(here, 'comlink.worker.mjs'));
  const bare = wrap(nodeEndpoint(comlinkWorker));
  const backendWorker = new Worker(join(here, 'backend.worker.mjs'), { workerData: { dist } });
  const remote = connect(backendWorker);
  await remote.ready;
  const tools = createTools(remote);
  try {
    const comlink = { comlink: () => bare.echo(1), comlink2k: () => bare.echo2k() };
    return await measure(
      { ...echoOver(echoWorker), ...comlink, trivial: () => remote.exists('/f.txt'), tool: () => tools.call('read_file', { path: '/f.txt' }) },
      opts,
    );
  } finally {
    await echoWorker.terminate();
    await comlinkWorker.terminate();
    await backendWorker.terminate();
  }
}

async function browser() {
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage();
    await page.route('http://bench.test/**', (route) => {
      const path = new URL(route.request().url()).pathname;
      const files = {
        '/': ['text/html', '<!doctype html><title>rpc</title>'],
        '/echo.js': [
          'text/javascript',
          "const REPLY = 'x'.repeat(2100); onmessage = (e) => postMessage(typeof e.data === 'number' ? e.data : { id: e.data.id, text: REPLY });",
        ],
        '/measure.js': ['text/javascript', readFileSync(join(here, 'measure.js'))],
        '/comlink.mjs': ['text/javascript', readFileSync(join(root, 'node_modules/comlink/dist/esm/comlink.mjs'))],
        '/comlink-worker.js': [
          'text/javascript',
          "import { expose } from '/comlink.mjs'; const REPLY = 'x'.repeat(2100); expose({ echo: (n) => n, echo2k: () => REPLY });",
        ],
      };
      if (files[path]) return route.fulfill({ contentType: files[path][0], body: files[path][1] });
      if (path.startsWith('/dist/')) return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(dist, path.slice(6))) });
      return route.fulfill({ status: 404 });
    });
    await page.goto('http://bench.test/');
    return await page.evaluate(async (opts) => {
      const { measure } = await import('/measure.js');
      const { createTools } = await import('/dist/index.js');
      const { createWorkerBackend } = await import('/dist/client.js');
      const { wrap } = await import('/comlink.mjs');
      const bare = wrap(new Worker('/comlink-worker.js', { type: 'module' }));
      const echoWorker = new Worker('/echo.js');
      let next = 0;
      const waiting = new Map();
      echoWorker.onmessage = (e) => {
        const id = typeof e.data === 'number' ? e.data : e.data.id;
        waiting.get(id)?.();
        waiting.delete(id);
      };
      const send = (payload) => () =>
        new Promise((r) => {
          const id = ++next;
          waiting.set(id, r);
          echoWorker.postMessage(payload(id));
        });
      const echo = send((id) => id);
      const echo2k = send((id) => ({ id }));
      const remote = createWorkerBackend({ files: { '/f.txt': `${'x'.repeat(2047)}\n` } });
      await remote.ready;
      const tools = createTools(remote);
      return measure(
        {
          echo,
          echo2k,
          comlink: () => bare.echo(1),
          comlink2k: () => bare.echo2k(),
          trivial: () => remote.exists('/f.txt'),
          tool: () => tools.call('read_file', { path: '/f.txt' }),
        },
        opts,
      );
    }, opts);
  } finally {
    await browser.close();
  }
}

const results = {};
if (only !== 'chromium') results.node = await node();
if (only !== 'node') results.chromium = await browser();
console.log("round trip, µs per call (median of interleaved rounds; lower is better). The facade's overhead is its read_file tool");
console.log('call over a bare Comlink call answering with the same 2 KB (the last column); bare postMessage echoes for reference.');
console.log('runtime    mode            echo  echo 2KB  comlink  comlink 2KB  trivial  read_file tool  /comlink 2KB');
const cell = (v, w) => String(v).padStart(w);
for (const [runtime, r] of Object.entries(results)) {
  for (const mode of ['sequential_us', 'inflight_us']) {
    const ratio = (to) => `${(r.tool[mode] / r[to][mode]).toFixed(2)}x`;
    console.log(
      `${runtime.padEnd(10)} ${(mode === 'sequential_us' ? 'sequential' : '100 in flight').padEnd(14)} ${cell(r.echo[mode], 6)} ${cell(r.echo2k[mode], 9)} ${cell(r.comlink[mode], 8)} ${cell(r.comlink2k[mode], 12)} ${cell(r.trivial[mode], 8)} ${cell(r.tool[mode], 15)} ${cell(ratio('comlink2k'), 13)}`,
    );
  }
}
