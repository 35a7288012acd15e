// Run with --expose-gc: drops forks that are still of use (one whose fork is kept, one whose call
// is still running) and prints, as JSON on stdout, whether they went on working once collected.
import { MessageChannel } from 'node:worker_threads';
import { createStateBackend, createTools } from '../../dist/index.js';
import { connect } from '../../dist/client.js';
import { expose } from '../../dist/worker.js';

const { port1, port2 } = new MessageChannel();
expose(createStateBackend({ files: { '/a': 'a\n' } }), port2);
const remote = connect(port1);
await remote.ready;
const collect = async () => {
  for (let i = 0; i < 10; i++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 20));
  }
};

// A fork of a fork, the middle one dropped: nothing refers to it any more, so it is collected.
async function childOfDropped() {
  const middle = await remote.fork();
  const child = await middle.fork();
  return { child, middle: new WeakRef(middle) };
}
const { child, middle } = await childOfDropped();
const tools = createTools(child);
await child.readText('/a');
await collect();
const out = { middleCollected: middle.deref() === undefined };
out.childRead = await child.readText('/a').catch((e) => `rejected: ${e.message}`);
out.childTool = (await tools.run('read_file', { path: '/a' }).catch((e) => ({ text: `rejected: ${e.message}` }))).text;

// Calls on forks nobody keeps, collected while the calls run: each still answers.
const answers = await Promise.all(
  Array.from({ length: 20 }, async () => {
    const calls = (await remote.fork()).grep('a');
    await collect();
    return calls.then(
      (m) => m.length,
      (e) => `rejected: ${e.message}`,
    );
  }),
);
out.pendingAnswers = answers;
console.log(JSON.stringify(out));
port1.close();
port2.close();
