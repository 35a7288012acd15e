/**
 * The apply_patch format (V4A) parsed as Codex's `apply-patch` crate parses it (parser.rs):
 * the `*** Begin Patch` … `*** End Patch` envelope (padded markers and a heredoc wrapper
 * tolerated), `*** Add File:`, `*** Delete File:`, `*** Update File:` with an optional
 * `*** Move to:`, and update chunks of ' ', '-', '+' lines after `@@` headers, with
 * `*** End of File`. One extension: several `@@ anchor` lines in a row (OpenAI's V4A helper
 * and SPEC §8) narrow the search in order, where Codex would refuse the second one.
 * Error texts are Codex's own.
 */

const BEGIN_PATCH = '*** Begin Patch';
const END_PATCH = '*** End Patch';
const ADD_FILE = '*** Add File: ';
const DELETE_FILE = '*** Delete File: ';
const UPDATE_FILE = '*** Update File: ';
const MOVE_TO = '*** Move to: ';
const END_OF_FILE = '*** End of File';

export interface UpdateChunk {
  /** The `@@ text` lines before the chunk's lines, in order (bare `@@` lines add none). */
  anchors: string[];
  /** Lines the file must hold (context and removed lines), in order. */
  oldLines: string[];
  /** What replaces them (context and added lines), in order. */
  newLines: string[];
  /** For each new line, the index in oldLines of the context line it is, or -1 for an added line. */
  keeps: number[];
  /** `*** End of File`: the old lines are at the end of the file. */
  isEndOfFile: boolean;
  /** 1-based line of the patch where the chunk starts (its first @@ line, or its first line). */
  line: number;
}

export type Hunk =
  | { type: 'add'; path: string; contents: string }
  | { type: 'delete'; path: string }
  | { type: 'update'; path: string; movePath: string | null; chunks: UpdateChunk[] };

/** A patch that cannot be parsed: Codex's message, and the patch line it is about (if any). */
export class PatchParseError extends Error {
  constructor(
    message: string,
    readonly lineNumber?: number,
  ) {
    super(message);
    this.name = 'PatchParseError';
  }
}

/** Splits like Rust's str::lines(): on "\n", each line without a trailing "\r", no empty last line. */
function patchLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** The hunks of a whole patch (the `input` form). */
export function parsePatch(patch: string): Hunk[] {
  const lines = patchLines(patch.trim());
  const body = lenientBoundaries(lines);
  const hunks: Hunk[] = [];
  let lineNumber = 2;
  let rest = body;
  while (rest.length > 0) {
    const [hunk, used] = parseOneHunk(rest, lineNumber, hunks.at(-1));
    hunks.push(hunk);
    lineNumber += used;
    rest = rest.slice(used);
  }
  return hunks;
}

/**
 * The chunks of an update diff alone (the Responses API operation form, where `diff` is the
 * body of an `*** Update File` section, so one with no chunk is refused as that section would
 * be). Line numbers count from the diff's first line.
 */
export function parseUpdateDiff(diff: string, path: string): UpdateChunk[] {
  const lines = patchLines(diff);
  const { chunks, used } = parseChunks(lines, 1);
  if (used < lines.length) {
    throw new PatchParseError(
      `Unexpected line found in update diff: '${lines[used]}'. An update_file diff holds only @@ headers and lines starting with ' ' (context line), '+' (added line), or '-' (removed line)`,
      1 + used,
    );
  }
  if (chunks.length === 0) throw new PatchParseError(`Update file hunk for path '${path}' is empty`);
  return chunks;
}

/**
 * The content of a create_file diff (Responses API operation form), as OpenAI's V4A helper
 * makes it: every line starts with '+'; lines are joined with the diff's own line ending.
 */
export function parseCreateDiff(diff: string): string {
  const lines = diff.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const out: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (!line.startsWith('+')) throw new PatchParseError(`Invalid Add File Line: ${line}. Every line of a create_file diff starts with '+'`, i + 1);
    out.push(line.slice(1));
  }
  return out.join(diff.includes('\r\n') ? '\r\n' : '\n');
}

function strictBoundaries(lines: readonly string[]): string[] {
  const first = lines[0]?.trim();
  const last = lines[lines.length - 1]?.trim();
  if (first === BEGIN_PATCH && last === END_PATCH && lines.length >= 2) return lines.slice(1, -1);
  if (first !== undefined && first !== BEGIN_PATCH) {
    const fence = first.startsWith('```') ? ': this one opens a code fence (```); send the patch without the fence lines' : '';
    throw new PatchParseError(`The first line of the patch must be '*** Begin Patch'${fence}`);
  }
  throw new PatchParseError("The last line of the patch must be '*** End Patch'");
}

/**
 * Codex's lenient mode: a patch wrapped in a heredoc (`<<EOF` … `EOF`), as models sometimes send
 * it, also with the shell command before it (`apply_patch <<'EOF'`, as Codex parses a shell call).
 */
function lenientBoundaries(lines: readonly string[]): string[] {
  try {
    return strictBoundaries(lines);
  } catch (error) {
    const first = lines[0]?.replace(/^apply_?patch\s+/, '');
    const last = lines[lines.length - 1];
    if ((first === '<<EOF' || first === "<<'EOF'" || first === '<<"EOF"') && last?.endsWith('EOF') && lines.length >= 4) {
      return strictBoundaries(lines.slice(1, -1));
    }
    throw error;
  }
}

function parseOneHunk(lines: readonly string[], lineNumber: number, previous?: Hunk): [Hunk, number] {
  const first = lines[0]!.trim();
  if (first.startsWith(ADD_FILE)) {
    let contents = '';
    let used = 1;
    for (const line of lines.slice(1)) {
      if (!line.startsWith('+')) break;
      contents += `${line.slice(1)}\n`;
      used++;
    }
    return [{ type: 'add', path: first.slice(ADD_FILE.length), contents }, used];
  }
  if (first.startsWith(DELETE_FILE)) return [{ type: 'delete', path: first.slice(DELETE_FILE.length) }, 1];
  if (first.startsWith(UPDATE_FILE)) {
    const path = first.slice(UPDATE_FILE.length);
    let used = 1;
    let movePath: string | null = null;
    if (lines[1]?.startsWith(MOVE_TO)) {
      movePath = lines[1].slice(MOVE_TO.length);
      used++;
    }
    const { chunks, used: chunkLines } = parseChunks(lines.slice(used), lineNumber + used);
    if (chunks.length === 0) throw new PatchParseError(`Update file hunk for path '${path}' is empty`, lineNumber);
    return [{ type: 'update', path, movePath, chunks }, used + chunkLines];
  }
  // A line without '+' right after an Add File's lines is most likely meant as one of them.
  const added =
    previous?.type === 'add' && first !== '' && !first.startsWith('***')
      ? `. Every line of an Add File section starts with '+': this line follows the '*** Add File: ${previous.path}' section without one`
      : '';
  throw new PatchParseError(
    `'${first}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'${added}`,
    lineNumber,
  );
}

/** Chunks until a line starting with '*' (the next hunk) or the end; blank lines between chunks are skipped. */
function parseChunks(lines: readonly string[], lineNumber: number): { chunks: UpdateChunk[]; used: number } {
  const chunks: UpdateChunk[] = [];
  let used = 0;
  while (used < lines.length) {
    const line = lines[used]!;
    if (line.trim() === '') {
      used++;
      continue;
    }
    if (line.startsWith('*')) break;
    const [chunk, chunkLines] = parseChunk(lines.slice(used), lineNumber + used, chunks.length === 0);
    chunks.push(chunk);
    used += chunkLines;
  }
  return { chunks, used };
}

function parseChunk(lines: readonly string[], lineNumber: number, allowMissingContext: boolean): [UpdateChunk, number] {
  const anchors: string[] = [];
  let start = 0;
  while (start < lines.length && (lines[start] === '@@' || lines[start]!.startsWith('@@ '))) {
    // (Without the spaces at its end, as Codex 0.169 reads an @@ line; a context line keeps them.)
    const text = lines[start]!.slice(3).trimEnd();
    if (text.trim() !== '') anchors.push(text);
    start++;
  }
  if (start === 0 && !allowMissingContext) {
    throw new PatchParseError(`Expected update hunk to start with a @@ context marker, got: '${lines[0]}'`, lineNumber);
  }
  if (start >= lines.length) throw new PatchParseError('Update hunk does not contain any lines', lineNumber + 1);
  const chunk: UpdateChunk = { anchors, oldLines: [], newLines: [], keeps: [], isEndOfFile: false, line: lineNumber };
  let parsed = 0;
  for (const line of lines.slice(start)) {
    if (line === END_OF_FILE) {
      if (parsed === 0) throw new PatchParseError('Update hunk does not contain any lines', lineNumber + 1);
      chunk.isEndOfFile = true;
      parsed++;
      break;
    }
    const marker = line[0];
    if (marker === undefined || marker === ' ') {
      // An empty line is an empty context line.
      chunk.keeps.push(chunk.oldLines.length);
      chunk.oldLines.push(line.slice(1));
      chunk.newLines.push(line.slice(1));
    } else if (marker === '+') {
      chunk.keeps.push(-1);
      chunk.newLines.push(line.slice(1));
    } else if (marker === '-') {
      chunk.oldLines.push(line.slice(1));
    } else {
      if (parsed === 0) {
        throw new PatchParseError(
          `Unexpected line found in update hunk: '${line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)`,
          lineNumber + 1,
        );
      }
      break; // the start of the next chunk or hunk
    }
    parsed++;
  }
  return [chunk, start + parsed];
}
