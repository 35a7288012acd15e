// Another build of agentvfs, for before/after figures from one run:
// AGENTVFS_BASELINE=/path/to/old/dist npm run bench. It runs right after agentvfs at every scale,
// with the same adapter, and is no JS peer (no target or "x best peer" compares against it).
import { adapterOf } from './agentvfs.mjs';

const dist = process.env.AGENTVFS_BASELINE;
export const name = 'agentvfs-baseline';
export const available = () => Boolean(dist);
const build = dist ? await import(new URL(`file://${dist.replace(/\/$/, '')}/index.js`).href) : null;
export const create = () => adapterOf(build.createStateBackend);
