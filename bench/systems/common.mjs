// Shared helpers for the system adapters.
// Adapter interface (every method async, `this` is the loaded instance):
//   name, load(entries: [path, Uint8Array][]), grep({pattern, fixed, ignoreCase}) -> matching lines,
//   glob(pattern) -> file count, listDirs() -> directory count, read(paths) -> total chars,
//   edit(targets: {path, from, to}[]) -> edits done, snapshotRestore() -> snapshot bytes, dispose().
// A query a system cannot express throws NotAvailable(reason): recorded as n/a, never emulated.
export class NotAvailable extends Error {
  constructor(reason) {
    super(reason);
    this.name = 'NotAvailable';
  }
}
export const ROOT = '/corpus';
export const BIG_LIMITS = { maxFiles: Infinity, maxTotalBytes: Infinity, maxFileBytes: Infinity };
export const utf8 = new TextDecoder();
export const countNewlines = (s) => {
  let n = 0,
    i = -1;
  while ((i = s.indexOf('\n', i + 1)) !== -1) n++;
  return n;
};
export const dirname = (p) => p.slice(0, p.lastIndexOf('/')) || '/';
/** Plain JS line scan used by the memfs baseline. */
export function makeLineTest({ pattern, fixed, ignoreCase }) {
  const src = fixed ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : pattern;
  const re = new RegExp(src, ignoreCase ? 'i' : '');
  if (fixed && !ignoreCase) return (line) => line.includes(pattern);
  return (line) => re.test(line);
}
/** Counts directories from ROOT down, asking the system only for each directory's subdirectories. */
export async function countDirs(subdirsOf) {
  let dirs = 0;
  const stack = [ROOT];
  while (stack.length) {
    const d = stack.pop();
    dirs++;
    for (const sub of await subdirsOf(d)) stack.push(sub);
  }
  return dirs;
}
