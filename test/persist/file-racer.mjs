// Child process for stores.test.ts: waits for a start time, opens a file store, prints whether it
// could, and holds it until `<path>.release` exists (so the others racing it find it alive).
import { existsSync } from 'node:fs';
import { createFileStore } from '../../dist/persist-node.js';

const [path, at] = process.argv.slice(2);
while (Date.now() < Number(at)) {}
const store = createFileStore(path);
const opened = await store.readAll().then(
  () => true,
  () => false,
);
console.log(opened ? 'opened' : 'refused');
if (opened) {
  while (!existsSync(`${path}.release`)) await new Promise((resolve) => setTimeout(resolve, 20));
  await store.close();
}
