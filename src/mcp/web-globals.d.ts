// The fetch types mcpHandler takes and returns. Every runtime it serves (Node >= 20, Deno, Bun,
// workerd, browsers) has them, and so do the users' type libraries (DOM, @types/node, workers
// types): these interface declarations only merge with theirs, and declare just what src/mcp uses,
// so the core is never compiled against DOM types.
interface Headers {
  get(name: string): string | null;
  set(name: string, value: string): void;
  append(name: string, value: string): void;
}
interface Request {
  readonly method: string;
  readonly headers: Headers;
}
interface Response {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
}
