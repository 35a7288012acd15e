/** "1 byte", "2 bytes": a count with its noun, for messages a model reads. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
