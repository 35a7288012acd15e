// Round-trip latency of the worker facade next to a bare postMessage echo, in Node
// (worker_threads) and in Chromium (a module Web Worker). Run: node bench/rpc/run.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { chromium } from '@playwright/test';
import { createTools } from '../../dist/index.js';
import { connect } from '../../dist/client.js';
import { measure } from './measure.js';

const here = import.meta.dirname;
const root = join(here, '../..');
const quick = process.argv.includes('--tiny');
const opts = quick ? { sequential: 200, batches: 3 } : {};

function echoOver(worker) {
  let next = 0;
  const waiting = new Map();
  const onMessage = (m) => {
    waiting.get(m)?.();
    waiting.delete(m);
  };
  if (worker.on) worker.on('message', onMessage);
  else worker.onmessage = (e) => onMessage(e.data);
  return () => new Promise((resolve) => {
    const id = ++next;
    waiting.set(id, resolve);
    worker.postMessage(id);
  });
}

async function node() {
  const echoWorker = new Worker(join(here, 'echo.worker.mjs'));
  const backendWorker = new Worker(join(here, 'backend.worker.mjs'));
  const remote = connect(backendWorker);
  await remote.ready;
  const tools = createTools(remote);
  try {
    return await measure({ echo: echoOver(echoWorker), trivial: () => remote.exists('/f.txt'), tool: () => tools.call('read_file', { path: '/f.txt' }) }, opts);
  } finally {
    await echoWorker.terminate();
    await backendWorker.terminate();
  }
}

async function browser() {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.route('http://bench.test/**', (route) => {
      const path = new URL(route.request().url()).pathname;
      const files = {
        '/': ['text/html', '<!doctype html><title>rpc</title>'],
        '/echo.js': ['text/javascript', 'onmessage = (e) => postMessage(e.data);'],
        '/measure.js': ['text/javascript', readFileSync(join(here, 'measure.js'))],
      };
      if (files[path]) return route.fulfill({ contentType: files[path][0], body: files[path][1] });
      if (path.startsWith('/dist/')) return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(root, path)) });
      return route.fulfill({ status: 404 });
    });
    await page.goto('http://bench.test/');
    return await page.evaluate(async (opts) => {
      const { measure } = await import('/measure.js');
      const { createTools } = await import('/dist/index.js');
      const { createWorkerBackend } = await import('/dist/client.js');
      const echoWorker = new Worker('/echo.js');
      let next = 0;
      const waiting = new Map();
      echoWorker.onmessage = (e) => (waiting.get(e.data)?.(), waiting.delete(e.data));
      const echo = () => new Promise((r) => { const id = ++next; waiting.set(id, r); echoWorker.postMessage(id); });
      const remote = createWorkerBackend({ files: { '/f.txt': 'x'.repeat(2047) + '\n' } });
      await remote.ready;
      const tools = createTools(remote);
      return measure({ echo, trivial: () => remote.exists('/f.txt'), tool: () => tools.call('read_file', { path: '/f.txt' }) }, opts);
    }, opts);
  } finally {
    await browser.close();
  }
}

const results = { node: await node(), chromium: await browser() };
console.log('round trip, µs per call (lower is better); ratio = tool call / bare echo');
console.log('runtime    mode        echo    trivial  read_file tool  ratio');
for (const [runtime, r] of Object.entries(results)) {
  for (const mode of ['sequential_us', 'inflight_us']) {
    const ratio = (r.tool[mode] / r.echo[mode]).toFixed(2);
    console.log(`${runtime.padEnd(10)} ${(mode === 'sequential_us' ? 'sequential' : '100 in flight').padEnd(11)} ${String(r.echo[mode]).padStart(6)} ${String(r.trivial[mode]).padStart(9)} ${String(r.tool[mode]).padStart(15)}  ${ratio}x`);
  }
}
