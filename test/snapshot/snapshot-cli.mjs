// Takes or restores a snapshot in its own Node process, with the built package:
//   node snapshot-cli.mjs take FILE     writes a snapshot of a known tree to FILE
//   node snapshot-cli.mjs dump FILE     restores FILE and prints the tree as JSON
import { readFileSync, writeFileSync } from 'node:fs';
import { createStateBackend } from '../../dist/index.js';

const [mode, file] = process.argv.slice(2);
if (mode === 'take') {
  const b = createStateBackend({ now: () => 1_700_000_000_123.5 });
  await b.writeFile('/src/ünï.ts', 'export const x = "crlf";\r\n');
  await b.writeFile(
    '/bin/all.bin',
    Uint8Array.from({ length: 256 }, (_, i) => i),
  );
  await b.mkdir('/empty/dir');
  writeFileSync(file, await b.snapshot());
} else {
  const b = createStateBackend();
  await b.restore(new Uint8Array(readFileSync(file)));
  const out = {};
  for (const p of await b.glob('**/*')) out[p] = { bytes: [...(await b.readFile(p))].join(','), mtimeMs: (await b.stat(p)).mtimeMs };
  out['/empty/dir'] = (await b.stat('/empty/dir')).isDir;
  console.log(JSON.stringify(out));
}
