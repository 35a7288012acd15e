// Run with --expose-gc: makes many calls through connect() over a MessageChannel, drops the
// results, and prints how much memory stays reachable afterwards (JSON on stdout).
import { MessageChannel } from 'node:worker_threads';
import { createStateBackend } from '../../dist/index.js';
import { connect } from '../../dist/client.js';
import { expose } from '../../dist/worker.js';

const CALLS = Number(process.argv[2] ?? 2000);
const FILE_BYTES = 100_000;
const { port1, port2 } = new MessageChannel();
expose(createStateBackend({ files: { '/big.bin': new Uint8Array(FILE_BYTES).fill(7) } }), port2);
const remote = connect(port1);
await remote.ready;
// Transferred buffers are freed some time after the collection that finds them dead, so one gc()
// can still count a few hundred finished results (up to ~20 MB here, with or without a leak):
// collect and wait a few times, and keep the lowest reading. A leak of the results stays (~200 MB).
const used = async () => {
  let least = Infinity;
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 20));
    globalThis.gc();
    const m = process.memoryUsage();
    least = Math.min(least, m.heapUsed + m.arrayBuffers);
  }
  return least;
};
let checksum = 0;
for (let i = 0; i < 50; i++) checksum += (await remote.readFile('/big.bin')).length; // warm up
const before = await used();
for (let i = 0; i < CALLS; i++) checksum += (await remote.readFile('/big.bin')).length;
const after = await used();
console.log(JSON.stringify({ calls: CALLS, resultBytes: CALLS * FILE_BYTES, checksum, growth: after - before }));
port1.close();
port2.close();
