// memfs only uses streams for createReadStream/createWriteStream, which agentvfs never calls.
class Unsupported {
  constructor() {
    throw new Error('agentvfs: Node streams are not available in this build.');
  }
}
export const Readable = Unsupported;
export const Writable = Unsupported;
export default { Readable, Writable };
