// A synthetic ~50 MB TypeScript corpus for the "large grep" check, generated on the page
// in chunks (deterministic, so every run greps the same bytes).
export const CORPUS_DIR = '/corpus';
export const CORPUS_PACKAGES = 20;
export const FILES_PER_PACKAGE = 40;
export const FILE_BYTES = 64 * 1024;
export const CORPUS_BYTES = CORPUS_PACKAGES * FILES_PER_PACKAGE * FILE_BYTES; // 50 MiB

const VERBS = ['read', 'write', 'load', 'parse', 'resolve', 'format', 'build', 'fetch', 'update', 'remove', 'watch', 'merge'];
const NOUNS = ['Config', 'Manifest', 'Entry', 'Module', 'Session', 'Token', 'Record', 'Index', 'Cache', 'Bundle', 'Route', 'Schema'];
const TYPES = ['string', 'number', 'boolean', 'Uint8Array', 'Record<string, unknown>', 'string[]'];
const WORDS = ['value', 'result', 'entry', 'item', 'next', 'current', 'options', 'state', 'buffer', 'payload', 'target', 'source'];

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function file(seed: number): string {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const parts: string[] = [`// generated module ${seed}\nimport { strict as assert } from './assert';\n\n`];
  let size = parts[0]!.length;
  while (size < FILE_BYTES) {
    const name = `${pick(VERBS)}${pick(NOUNS)}`;
    const sync = r() < 0.3 ? 'Sync' : '';
    const arg = pick(WORDS);
    const local = pick(WORDS);
    const block =
      `/** ${name}${sync}: ${pick(VERBS)}s the ${pick(NOUNS).toLowerCase()} for a ${pick(NOUNS).toLowerCase()}. */\n` +
      `export function ${name}${sync}(${arg}: ${pick(TYPES)}, limit = ${Math.floor(r() * 1000)}): ${pick(TYPES)} {\n` +
      `  const ${local}Next = ${pick(WORDS)}Table.get(${arg}) ?? ${pick(VERBS)}${pick(NOUNS)}${r() < 0.5 ? 'Sync' : ''}(${arg}, limit - 1);\n` +
      `  if (${local}Next === undefined) throw new Error('${pick(NOUNS)} not found: ' + String(${arg}));\n` +
      `  assert(limit > 0, '${pick(WORDS)} limit reached');\n` +
      `  return ${local}Next;\n}\n\n`;
    parts.push(block);
    size += block.length;
  }
  return `${parts.join('').slice(0, FILE_BYTES - 1)}\n`;
}

/** One package's files: [path, bytes] pairs ready for uploadFiles. */
export function corpusPackage(pkg: number): Array<[string, Uint8Array]> {
  const encoder = new TextEncoder();
  const out: Array<[string, Uint8Array]> = [];
  for (let i = 0; i < FILES_PER_PACKAGE; i++) {
    const path = `${CORPUS_DIR}/pkg-${String(pkg).padStart(2, '0')}/module-${String(i).padStart(2, '0')}.ts`;
    out.push([path, encoder.encode(file(pkg * 1000 + i))]);
  }
  return out;
}
