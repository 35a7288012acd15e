// picomatch 4 has no `exports` map; its POSIX build is a deep import without bundled types.
declare module 'picomatch/posix.js' {
  interface PicomatchOptions {
    dot?: boolean;
    basename?: boolean;
    nocase?: boolean;
    posix?: boolean;
  }
  function picomatch(glob: string | string[], options?: PicomatchOptions): (path: string) => boolean;
  namespace picomatch {
    function makeRe(glob: string, options?: PicomatchOptions): RegExp;
  }
  export default picomatch;
}
