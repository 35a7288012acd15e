// Provided at build time by scripts/build.mjs: the self-contained dist/backend-worker.js as a string.
declare module 'virtual:agentvfs/backend-worker-source' {
  const source: string;
  export default source;
}
