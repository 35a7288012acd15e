// Kill test, Node + file store: a child process writes as fast as it can and is SIGKILLed at
// seeded random moments; after each kill the workspace reopens and must hold every acknowledged
// write ('immediate'), or every write acknowledged more than maxWaitMs (+ an allowance) before
// the kill ('debounced'), and nothing partial. Outcome-deterministic: the assertions hold for
// any kill moment; only the moments are random (seeded).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
import { createFileStore } from '../../src/persist/node/index.ts';
import { openPersistent } from '../../src/persist/index.ts';
import { writeOf } from './kill-content.mjs';
import { seeded } from '../seeded.ts';

const dir = mkdtempSync(join(tmpdir(), 'agentvfs-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const WRITER = new URL('./kill-writer.mjs', import.meta.url).pathname;

interface Round {
  acks: Map<number, number>; // write → when acknowledged
  killedAt: number;
}

/** Starts the writer, lets it write for `ms` after its first acknowledged write, SIGKILLs it. */
function runAndKill(path: string, durability: string, start: number, ms: number): Promise<Round> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, path, durability, String(start)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const acks = new Map<number, number>();
    let buffered = '';
    let killedAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [word, i, at] = line.split(' ');
        if (word !== 'ack') continue;
        // Timed from the first acknowledged write, so every round has some, however loaded the machine.
        if (acks.size === 0) setTimeout(() => ((killedAt = Date.now()), child.kill('SIGKILL')), ms);
        acks.set(Number(i), Number(at));
      }
    });
    child.on('error', reject);
    // Lines written before the kill may still be in the pipe: 'close' comes after they are read.
    child.on('close', (_code, signal) => (signal === 'SIGKILL' ? resolve({ acks, killedAt }) : reject(new Error(`writer ended by itself (${signal})`))));
  });
}

/** Every file of the reopened workspace: which write made it (-1: not a whole write). */
async function reopen(path: string): Promise<Map<string, number>> {
  const { backend, restored } = await openPersistent(createStateBackend(), createFileStore(path));
  expect(restored.status).not.toBe('corrupt');
  const out = new Map<string, number>();
  const paths = (await backend.exists('/w')) ? await backend.glob('*', { path: '/w' }) : [];
  for (const p of paths) out.set(p, writeOf(await backend.readFile(p)));
  await backend.close();
  return out;
}

describe('SIGKILL during a write storm (Node, file store)', () => {
  it("durability 'immediate': 30 kills, every acknowledged write is there, nothing partial", { timeout: 300_000 }, async () => {
    const path = join(dir, 'immediate.log');
    const random = seeded(22);
    let next = 0;
    let totalAcks = 0;
    for (let kill = 0; kill < 30; kill++) {
      const { acks } = await runAndKill(path, 'immediate', next, 5 + Math.floor(random() * 60));
      totalAcks += acks.size;
      const files = await reopen(path);
      for (const [p, i] of files) expect(i, `${p} holds a partial or foreign write`).toBeGreaterThanOrEqual(0);
      // The last acknowledged write to each slot is there, or a later one (written, not yet acknowledged).
      const last = new Map<number, number>();
      for (const i of acks.keys()) last.set(i % 50, Math.max(last.get(i % 50) ?? -1, i));
      for (const [slot, i] of last) expect(files.get(`/w/${slot}.bin`), `write ${i} to /w/${slot}.bin was acknowledged`).toBeGreaterThanOrEqual(i);
      next = Math.max(next, ...acks.keys(), ...files.values()) + 1;
    }
    console.log(`file store, immediate: 30 kills, ${totalAcks} acknowledged writes, none lost`);
    expect(totalAcks).toBeGreaterThanOrEqual(30);
  });

  // maxWaitMs bounds when a save starts; the commit then takes what a loaded machine gives it, so
  // writes older than maxWaitMs + 1 s must be there. Without a maximum wait a steady stream loses them all.
  it("durability 'debounced' (maxWaitMs 100): nothing acknowledged more than maxWaitMs (+1 s for timers and the commit) before a kill is lost", {
    timeout: 300_000,
  }, async () => {
    const path = join(dir, 'debounced.log');
    const random = seeded(7);
    let next = 0;
    let totalAcks = 0;
    let olderThanWindow = 0;
    for (let kill = 0; kill < 10; kill++) {
      const { acks, killedAt } = await runAndKill(path, 'debounced', next, 1_300 + Math.floor(random() * 400));
      totalAcks += acks.size;
      const files = await reopen(path);
      for (const [p, i] of files) expect(i, `${p} holds a partial or foreign write`).toBeGreaterThanOrEqual(0);
      const last = new Map<number, number>();
      for (const [i, at] of acks) if (at < killedAt - 1_100) last.set(i % 50, Math.max(last.get(i % 50) ?? -1, i));
      for (const [slot, i] of last) {
        olderThanWindow++;
        expect(files.get(`/w/${slot}.bin`), `write ${i} to /w/${slot}.bin was acknowledged over 1.1 s before the kill`).toBeGreaterThanOrEqual(i);
      }
      next = Math.max(next, ...acks.keys(), ...files.values()) + 1;
    }
    console.log(`file store, debounced: 10 kills, ${totalAcks} acknowledged writes (${olderThanWindow} slot checks older than the window), none lost`);
    expect(olderThanWindow).toBeGreaterThan(0);
  });
});
