/**
 * A path a model gives for a file or directory it creates, refused where it almost surely meant
 * another: a trailing "/" on a file's path, the whole path in quotes, a new name with a space at
 * either end, or one holding a control character. POSIX allows all of these and the backend takes
 * them, but a tool would report success for a file the model then cannot find beside the one it
 * meant (SPEC §2: never another file silently). So are a name with a tab, and `~`, `$HOME`,
 * `%USERPROFILE%` or a `file:` URL, which only a shell or a browser reads otherwise. Names that
 * exist already stay usable.
 */
import type { Backend } from '../backend/types.ts';
import { VfsError } from '../errors.ts';
import { clipped, quoted } from '../paths.ts';

const QUOTES = '"\'`';
const UNCHANGED = 'No file was changed.';

/**
 * Throws EINVAL when `input`, which resolved to `path`, looks like a mistake for a `kind` the
 * call would create there (`name`: the one a move would keep, to suggest after a trailing "/").
 * Only the names the call creates are judged: an existing directory named with a space keeps working.
 */
export async function checkNewPath(
  backend: Pick<Backend, 'exists' | 'resolvePath'>,
  input: string,
  path: string,
  kind: 'file' | 'directory',
  name?: string,
): Promise<void> {
  const trimmed = input.trim();
  const quote = trimmed[0];
  if (trimmed.length >= 2 && quote !== undefined && QUOTES.includes(quote) && trimmed.endsWith(quote)) {
    const meant = await backend.resolvePath(trimmed.slice(1, -1)).catch(() => null);
    const next = meant === null ? 'Give the path without them.' : `Use ${JSON.stringify(clipped(meant))}.`;
    throw new VfsError('EINVAL', `Invalid path ${quoted(input)}: it is wrapped in quotes, which would become part of the name. ${UNCHANGED} ${next}`, { path });
  }
  // (A directory's path may end in "/": `mv src newdir/` renames src when newdir does not exist.)
  if (kind === 'file' && /[\\/]$/.test(input) && path !== '/') {
    const next =
      name === undefined
        ? `Give the file's own path, such as ${JSON.stringify(clipped(`${path}/NAME`))}`
        : `To put it inside ${path}, use ${JSON.stringify(clipped(`${path}/${name}`))}`;
    throw new VfsError(
      'EINVAL',
      `Invalid path ${quoted(input)}: it ends with "/", which names a directory to put something in, not a file. ${UNCHANGED} ${next}.`,
      {
        path,
      },
    );
  }
  const names = path.split('/');
  // Cheap first: most paths have no odd name, and need no lookup.
  if (!names.some(odd)) return;
  for (let i = 1; i < names.length; i++) {
    if (!odd(names[i]!)) continue;
    const at = names.slice(0, i + 1).join('/');
    // A name that exists (or that cannot be looked up, as a path outside the read permissions) is not created here.
    if (await backend.exists(at).catch(() => true)) continue;
    const unexpanded = UNEXPANDED.exec(names[i]!);
    if (unexpanded !== null) {
      const meant = [...names.slice(0, i), ...names.slice(i + 1)].join('/');
      const next = meant === '' || names.length === i + 1 ? 'Give the path without it.' : `Use ${JSON.stringify(clipped(meant))} if that is what you meant.`;
      throw new VfsError(
        'EINVAL',
        `Invalid path ${quoted(input)}: ${unexpandedWhat(unexpanded)}; it would be taken as the name ${JSON.stringify(names[i])}. ${UNCHANGED} ${next}`,
        {
          path,
        },
      );
    }
    if (!spaced(names[i]!) && names[i]!.includes('\t')) {
      // "src\tests\a.ts" sent in JSON: its "\t" arrives as a tab.
      const meant = input.includes('\\') ? await backend.resolvePath(input.replaceAll('\t', '/t')).catch(() => null) : null;
      const next =
        meant === null
          ? 'Give the name without it.'
          : `Use ${JSON.stringify(clipped(meant))} if that is what you meant ("\\t" in a JSON string is a tab: write "/" between names).`;
      throw new VfsError(
        'EINVAL',
        `Invalid path ${quoted(input)}: the name ${quoted(names[i]!)} holds a tab, which tool results would show as spaces. ${UNCHANGED} ${next}`,
        {
          path,
        },
      );
    }
    const control = CONTROL.exec(names[i]!)?.[0];
    if (control !== undefined) {
      // This name and the ones after it (none of which exists yet), so the suggestion is not refused in turn.
      const meant = names.map((name, j) => (j >= i ? name.replace(CONTROL_ALL, '') : name)).join('/');
      const next = meant.endsWith('/') || meant.includes('//') ? 'Give the name without it.' : `Use ${quoted(meant)} if that is what you meant.`;
      throw new VfsError(
        'EINVAL',
        `Invalid path ${quoted(input)}: the name ${quoted(names[i]!)} holds ${codePoint(control)}, which tool results would show as a line break or not at all. ${UNCHANGED} ${next}`,
        { path },
      );
    }
    const meant =
      names
        .map((name, j) => (j >= i ? name.trim() : name))
        .join('/')
        .replace(/\/+(?=\/|$)/g, '') || '/';
    const end = /^\s/u.test(names[i]!) ? 'begins' : 'ends';
    throw new VfsError(
      'EINVAL',
      `Invalid path ${quoted(input)}: the name ${JSON.stringify(clipped(names[i]!))} ${end} with ${whitespace(names[i]!, end)}, which the name would keep. ${UNCHANGED} Use ${JSON.stringify(clipped(meant))} if that is what you meant.`,
      { path },
    );
  }
}

const spaced = (name: string): boolean => /^\s|\s$/u.test(name);

/** A name a tool would not create as it is: see checkNewPath. */
const odd = (name: string): boolean => spaced(name) || CONTROL.test(name) || name.includes('\t') || UNEXPANDED.test(name);

/**
 * A name a shell would have expanded (`~`, `$HOME`, `${HOME}`, `%USERPROFILE%`) or the scheme of a
 * `file:///x` URL (which resolves to `/file:/x`): no model means these literally. A `$` name in
 * capitals only: `$postId` and `$lang` are route directories (TanStack Router, Remix), created on purpose.
 */
const UNEXPANDED = /^(?:(~)|(\$[A-Z_][A-Z0-9_]*|\$\{\w+\})|(%[A-Za-z_]\w*%)|([Ff][Ii][Ll][Ee]:))$/;

function unexpandedWhat(match: RegExpExecArray): string {
  if (match[1] !== undefined) return '"~" means a home directory only to a shell, and no shell reads paths here';
  if (match[2] !== undefined) return `${JSON.stringify(match[2])} is a shell variable, and no shell reads paths here`;
  if (match[3] !== undefined) return `${JSON.stringify(match[3])} is a Windows environment variable, and nothing expands it here`;
  return 'a file: URL is no path (its path is what follows "file://")';
}

// Control characters other than a tab (C0, DEL, C1), and the Unicode line and paragraph
// separators: a listing of one path a line reads them as a break, or shows nothing. (Line feed
// and carriage return are refused in every name, by the backend; these only in a name a tool creates.)
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]/u;
const CONTROL_ALL = new RegExp(CONTROL.source, 'gu');

/** `c` as U+XXXX, as a person can look it up. */
function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The whitespace at that end of `name`, in words. */
function whitespace(name: string, end: 'begins' | 'ends'): string {
  const c = end === 'begins' ? name[0]! : name.at(-1)!;
  if (c === ' ') return 'a space';
  if (c === '\t') return 'a tab';
  return `a space character (${codePoint(c)})`;
}
