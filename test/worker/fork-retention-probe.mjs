// Run with --expose-gc: makes many forks through connect() over a MessageChannel, each given a
// 20 KB file, and closes them (`close`) or drops them (`drop`); prints how much memory stays
// reachable afterwards, both sides counted (JSON on stdout).
import { MessageChannel } from 'node:worker_threads';
import { createStateBackend } from '../../dist/index.js';
import { connect } from '../../dist/client.js';
import { expose } from '../../dist/worker.js';

const [mode = 'close', count = '1500'] = process.argv.slice(2);
const FORKS = Number(count);
const { port1, port2 } = new MessageChannel();
expose(createStateBackend({ files: { '/a.txt': 'a\n' } }), port2);
const remote = connect(port1);
await remote.ready;
const content = 'x'.repeat(20_000);
// In a function of its own, so no variable of the loop keeps the last fork.
async function oneFork(i) {
  const fork = await remote.fork();
  await fork.writeFile(`/f${i}.txt`, content);
  if (mode === 'close') fork.close();
}
// Collected forks are released in the worker by a finalizer, which runs some time after the
// collection that finds them: collect and wait a few times, and keep the lowest reading.
const used = async () => {
  let least = Infinity;
  for (let i = 0; i < 8; i++) {
    await new Promise((r) => setTimeout(r, 20));
    globalThis.gc();
    least = Math.min(least, process.memoryUsage().heapUsed);
  }
  return least;
};
for (let i = 0; i < 50; i++) await oneFork(i); // warm up
const before = await used();
for (let i = 0; i < FORKS; i++) await oneFork(i);
const after = await used();
console.log(JSON.stringify({ mode, forks: FORKS, growth: after - before }));
port1.close();
port2.close();
