// memfs probes `require('process')` inside a try; an empty module makes it fall back to its own defaults.
export default undefined;
