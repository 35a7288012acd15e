// Kill test, Node + file store: a child process writes and removes files as fast as it can and is
// SIGKILLed at seeded random moments; after each kill the workspace reopens and must be exactly
// the state after one operation, no earlier than the last acknowledged ('immediate') or the newest
// a committed save held ('debounced', where a write is acknowledged before it is saved): nothing lost,
// nothing partial, no removed file back. Outcome-deterministic: the assertions hold for
// any kill moment; only the moments are random (seeded).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
import { createFileStore } from '../../src/persist/node/index.ts';
import { openPersistent } from '../../src/persist/index.ts';
import { stateAfter, writeOf } from './kill-content.mjs';
import { seeded } from '../seeded.ts';

const dir = mkdtempSync(join(tmpdir(), 'agentvfs-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const WRITER = new URL('./kill-writer.mjs', import.meta.url).pathname;

interface Round {
  acks: Map<number, number>; // write → when acknowledged
  /** The newest write a committed save held (-1: none). */
  savedUpTo: number;
}

/** Starts the writer, lets it write for `ms` after its first acknowledged write, SIGKILLs it. */
function runAndKill(path: string, durability: string, start: number, ms: number): Promise<Round> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, path, durability, String(start)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const acks = new Map<number, number>();
    let savedUpTo = -1;
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [word, i, at] = line.split(' ');
        if (word === 'saved') savedUpTo = Math.max(savedUpTo, Number(i));
        if (word !== 'ack') continue;
        // Timed from the first acknowledged write, so every round has some, however loaded the machine.
        if (acks.size === 0) setTimeout(() => child.kill('SIGKILL'), ms);
        acks.set(Number(i), Number(at));
      }
    });
    child.on('error', reject);
    // Lines written before the kill may still be in the pipe: 'close' comes after they are read.
    child.on('close', (_code, signal) => (signal === 'SIGKILL' ? resolve({ acks, savedUpTo }) : reject(new Error(`writer ended by itself (${signal})`))));
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

const SLOTS = 50; // kill-writer.mjs writes operation i to /w/<i % 50>.bin

/**
 * The reopened workspace holds no partial write and is the state after one operation of the
 * round (which started at `start` over `initial`) from `required` (the last that must be there) to
 * `lastRun` (one in flight may have been saved too).
 */
function expectStateAfterOne(files: Map<string, number>, round: { initial: Map<string, number>; start: number; required: number; lastRun: number }): void {
  for (const [p, i] of files) expect(i, `${p} holds a partial or foreign write`).toBeGreaterThanOrEqual(0);
  const { initial, start, required, lastRun } = round;
  const at = (slot: number) => `/w/${slot}.bin`;
  const after = stateAfter((slot) => files.get(at(slot)), { initial: (slot) => initial.get(at(slot)), start, from: required, to: lastRun, slots: SLOTS });
  expect(after, `not the state after any operation from ${required} to ${lastRun}: ${JSON.stringify([...files])}`).not.toBeNull();
}

describe('SIGKILL during a write storm (Node, file store)', () => {
  it("durability 'immediate': 30 kills, every acknowledged write and removal is there, nothing partial", { timeout: 300_000 }, async () => {
    const path = join(dir, 'immediate.log');
    const random = seeded(22);
    let next = 0;
    let totalAcks = 0;
    let initial = new Map<string, number>();
    for (let kill = 0; kill < 30; kill++) {
      const { acks } = await runAndKill(path, 'immediate', next, 5 + Math.floor(random() * 60));
      totalAcks += acks.size;
      const files = await reopen(path);
      const acknowledged = Math.max(...acks.keys());
      expectStateAfterOne(files, { initial, start: next, required: acknowledged, lastRun: acknowledged + 1 });
      // The next round runs the one in flight again (saved or not, its effect is the same).
      [initial, next] = [files, acknowledged + 1];
    }
    console.log(`file store, immediate: 30 kills, ${totalAcks} acknowledged writes and removals, none lost`);
    expect(totalAcks).toBeGreaterThanOrEqual(30);
  });

  // maxWaitMs makes saves start under a steady stream of writes; once committed, a save survives
  // every kill. Without a maximum wait no save starts while the storm runs, and `inSaves` stays 0.
  // (Checked by what the saves hold, not by the clock: a commit takes what a loaded machine gives it.)
  it("durability 'debounced' (maxWaitMs 100): saves happen under a steady stream of writes, and a committed save survives every kill", {
    timeout: 300_000,
  }, async () => {
    const path = join(dir, 'debounced.log');
    const random = seeded(7);
    let next = 0;
    let totalAcks = 0;
    let inSaves = 0;
    let initial = new Map<string, number>();
    for (let kill = 0; kill < 10; kill++) {
      const { acks, savedUpTo } = await runAndKill(path, 'debounced', next, 1_300 + Math.floor(random() * 400));
      totalAcks += acks.size;
      const files = await reopen(path);
      inSaves += [...acks.keys()].filter((i) => i <= savedUpTo).length;
      const lastRun = Math.max(...acks.keys(), savedUpTo) + 1;
      expectStateAfterOne(files, { initial, start: next, required: Math.max(next - 1, savedUpTo), lastRun });
      // Writes no committed save held may be lost: the next round starts from what reopened.
      [initial, next] = [files, lastRun];
    }
    console.log(`file store, debounced: 10 kills, ${totalAcks} acknowledged writes and removals (${inSaves} in committed saves), none of those lost`);
    expect(inSaves).toBeGreaterThan(0);
  });
});
