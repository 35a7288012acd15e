// memfs reads `URL` for file: URLs; the web-standard global is the same class.
export const URL = globalThis.URL;
export default { URL };
