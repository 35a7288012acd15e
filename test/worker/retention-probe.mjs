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
const used = () => {
  globalThis.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
let checksum = 0;
for (let i = 0; i < 50; i++) checksum += (await remote.readFile('/big.bin')).length; // warm up
const before = used();
for (let i = 0; i < CALLS; i++) checksum += (await remote.readFile('/big.bin')).length;
await new Promise((r) => setTimeout(r, 50));
const after = used();
console.log(JSON.stringify({ calls: CALLS, resultBytes: CALLS * FILE_BYTES, checksum, growth: after - before }));
port1.close();
port2.close();
