/// <reference lib="dom" />
// Kill test, Chromium + IndexedDB: a page writes as fast as it can into an IndexedDB workspace
// and the whole browser (its process group) is SIGKILLed at seeded random moments; the next
// launch, on the same profile, reopens the workspace and checks it holds every acknowledged
// write and nothing partial. Outcome-deterministic: the checks hold for any kill moment.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, expect, test } from '@playwright/test';
import { CHROMIUM } from '../scripts/chromium.mjs';
import { serveDist } from './static-dist.ts';

const KILL_CONTENT = readFileSync(join(import.meta.dirname, '../test/persist/kill-content.mjs'), 'utf8');

/** mulberry32, seeded: the kill moments of a run can be replayed. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Debian's Chromium in a process group of its own, on `profile`, reachable over CDP. */
async function launch(profile: string): Promise<{ child: ChildProcess; browser: Browser }> {
  const child = spawn(CHROMIUM.executablePath, [...CHROMIUM.args, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const hit = err.match(/DevTools listening on (ws:\/\/\S+)/);
      if (hit) resolve(hit[1]!);
    });
    child.on('exit', () => reject(new Error(`chromium exited before listening: ${err.slice(-500)}`)));
  });
  return { child, browser: await chromium.connectOverCDP(endpoint) };
}

function killGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    process.kill(-child.pid!, 'SIGKILL');
  });
}

interface Seen {
  /** Slot → which write the reopened workspace holds there (-1: not a whole write). */
  files: Record<string, number>;
  status: string;
}

test("IndexedDB, durability 'immediate': 30 browser kills, every acknowledged write is there, nothing partial", async () => {
  test.setTimeout(120_000);
  const profile = mkdtempSync(join(tmpdir(), 'agentvfs-chromium-kill-'));
  const random = seeded(22);
  let next = 0;
  let totalAcks = 0;
  let acked = new Map<number, number>(); // slot → last acknowledged write, over every round so far
  try {
    for (let round = 0; round <= 30; round++) {
      const { child, browser } = await launch(profile);
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      const acks: number[] = [];
      let resolveFirst: () => void;
      const firstAck = new Promise<void>((r) => (resolveFirst = r));
      page.on('console', (m) => {
        const [word, i] = m.text().split(' ');
        if (word === 'ack') acks.push(Number(i)), resolveFirst();
      });
      await serveDist(page, { '/kill-content.mjs': KILL_CONTENT });
      // Reopen what the last round left, check it, then start a storm that runs until the kill.
      const seen: Seen = await page.evaluate(async (start) => {
        const { createStateBackend } = await import('/dist/index.js' as string);
        const { createIndexedDBStore, openPersistent } = await import('/dist/persist.js' as string);
        const { contentOf, writeOf } = await import('/kill-content.mjs' as string);
        const { backend, restored } = await openPersistent(createStateBackend(), createIndexedDBStore({ database: 'kill' }), { durability: 'immediate' });
        const files: Record<string, number> = {};
        if (await backend.exists('/w')) for (const p of await backend.glob('*', { path: '/w' })) files[p] = writeOf(await backend.readFile(p));
        void (async () => {
          for (let i = start; ; i++) {
            await backend.writeFile(`/w/${i % 50}.bin`, contentOf(i));
            console.log(`ack ${i}`);
          }
        })();
        return { files, status: restored.status };
      }, next);
      // What every earlier round acknowledged must be there, whole.
      expect(seen.status).not.toBe('corrupt');
      for (const [p, i] of Object.entries(seen.files)) expect(i, `${p} holds a partial write`).toBeGreaterThanOrEqual(0);
      for (const [slot, i] of acked) expect(seen.files[`/w/${slot}.bin`] ?? -1, `write ${i} was acknowledged before a kill`).toBeGreaterThanOrEqual(i);
      next = Math.max(next, ...Object.values(seen.files)) + 1;
      if (round === 30) {
        await browser.close();
        await killGroup(child);
        break;
      }
      await firstAck;
      await new Promise((r) => setTimeout(r, 5 + Math.floor(random() * 100)));
      await killGroup(child);
      // Console messages already delivered are all we count as acknowledged: a lost one only makes the check weaker.
      totalAcks += acks.length;
      acked = new Map(acked);
      for (const i of acks) acked.set(i % 50, Math.max(acked.get(i % 50) ?? -1, i));
      next = Math.max(next, ...acks) + 1;
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  console.log(`Chromium + IndexedDB, immediate: 30 kills, ${totalAcks} acknowledged writes, none lost`);
  expect(totalAcks).toBeGreaterThan(30);
});
