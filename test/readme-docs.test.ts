// The README and docs/ hold together: every relative link names a file that exists (and a
// heading that exists, for #anchors), the README states no figure that goes stale, and the
// package ships what the README points a user to.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md'))
  .map((f) => join('docs', f));
const pages = ['README.md', ...docs];

/** Markdown without fenced code blocks and inline code, where a [x](y) is not a link. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, text] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = text!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    result.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return result;
}

function localLinks(page: string): { target: string; file: string; anchor?: string }[] {
  const links = [...prose(readFileSync(join(root, page), 'utf8')).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return links
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      return { target, file: path === '' ? page : relative(root, join(dirname(join(root, page)), path)), anchor };
    });
}

describe('links in the README and docs/', () => {
  it('covers the README and every page of docs/', () => {
    expect(docs.length).toBeGreaterThanOrEqual(9);
    expect(localLinks('README.md').length).toBeGreaterThanOrEqual(10);
  });

  it.each(pages)('%s: every relative link resolves to a file and heading that exist', (page) => {
    const broken: string[] = [];
    for (const { target, file, anchor } of localLinks(page)) {
      if (!existsSync(join(root, file))) broken.push(`${target} (no file ${file})`);
      else if (anchor !== undefined && !anchors(readFileSync(join(root, file), 'utf8')).has(anchor))
        broken.push(`${target} (no heading #${anchor} in ${file})`);
    }
    expect(broken).toEqual([]);
  });

  it('the anchor rule matches GitHub on headings with code and punctuation', () => {
    expect([...anchors('## Handing bytes over (`copy: false`)\n## edit_file\n## Persistence (`agentvfs/persist`)\n## Tools\n## Tools\n')]).toEqual([
      'handing-bytes-over-copy-false',
      'edit_file',
      'persistence-agentvfspersist',
      'tools',
      'tools-1',
    ]);
  });
});

describe('README', () => {
  it('states no bundle size or timing (they go stale; `npm run size` and bench/README.md give them)', () => {
    const figures = prose(readFileSync(join(root, 'README.md'), 'utf8')).match(/\d[\d.,]*\s*(?:kB|KB|KiB|MB|MiB|ms|µs|s)\b/g);
    expect(figures).toBeNull();
  });

  // One complete example per model API and framework (six of them) is what a user comes for; the
  // ceiling keeps everything else (options, formats, internals) in docs/.
  it('stays short: what a user needs, the rest in docs/', () => {
    expect(readFileSync(join(root, 'README.md')).byteLength).toBeLessThan(18_000);
  });
});

describe('the package', () => {
  it('ships the LICENSE and every page the README links to', () => {
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' })) as [
      { files: { path: string }[] },
    ];
    const shipped = new Set(pack.files.map((f) => f.path));
    // The playground picture is left out of the tarball on purpose (docs/*.md only).
    const linked = localLinks('README.md')
      .map((l) => l.file)
      .filter((f) => !f.startsWith('docs/images/'));
    for (const file of ['LICENSE', 'README.md', ...linked]) expect(shipped, file).toContain(file);
  });
});
