import { describe, expect, it } from 'vitest';
import { createSession, createTools, type Backend, type ToolResult } from '../../src/index.ts';
import { CODEX_SCENARIOS } from './codex-scenarios.ts';
import { utf8, type BackendFactory } from './harness.ts';

/** Every file (path → text) and directory (path → null) under the root, relative, sorted. */
async function dump(backend: Backend): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  const walk = async (dir: string) => {
    for (const entry of await backend.ls(dir)) {
      const rel = entry.path.slice(1);
      if (entry.isDir) {
        out[rel] = null;
        await walk(entry.path);
      } else out[rel] = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await backend.readFile(entry.path));
    }
  };
  await walk('/');
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The state a scenario expects: its files, and every directory their parents (or the input's) make. */
function expectedState(files: Record<string, string>, input: Record<string, string>): Record<string, string | null> {
  const out: Record<string, string | null> = { ...files };
  for (const path of [...Object.keys(files), ...Object.keys(input)]) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) out[parts.slice(0, i).join('/')] = null;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const rooted = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([p, t]) => [`/${p}`, t]));

const wrap = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`;

function expectFailure(result: ToolResult, code: string): void {
  expect(result.isError, result.text).toBe(true);
  expect(result.code, result.text).toBe(code);
  expect(result.text.startsWith(`Error: ${code}: `), result.text).toBe(true);
  expect(result.changed).toEqual([]);
}

export function applyPatchSuite(make: BackendFactory) {
  describe("'openai' dialect: apply_patch (SPEC §8)", () => {
    const patchTools = async (files: Record<string, string | Uint8Array> = {}) => {
      const backend = await make({ files });
      return { backend, tools: createTools(backend, { dialect: 'openai' }) };
    };

    describe("Codex's scenarios (codex-rs/apply-patch/tests/fixtures/scenarios)", () => {
      for (const scenario of CODEX_SCENARIOS) {
        it(scenario.name, async () => {
          const { backend, tools } = await patchTools(rooted(scenario.input));
          const before = await backend.snapshot();
          const result = await tools.run('apply_patch', { input: scenario.patch });
          expect(await dump(backend)).toEqual(expectedState(scenario.expected, scenario.input));
          const succeeds = JSON.stringify(scenario.expected) !== JSON.stringify(scenario.input);
          expect(result.isError, result.text).toBe(!succeeds);
          if (!succeeds) {
            expect(result.changed).toEqual([]);
            expect(await backend.snapshot()).toEqual(before);
          }
        });
      }
    });

    describe("Codex's CLI tests (codex-rs/apply-patch/tests/suite/tool.rs)", () => {
      it('applies multiple operations, summarised as Codex does (A, then M, then D)', async () => {
        const { backend, tools } = await patchTools({ '/modify.txt': 'line1\nline2\n', '/delete.txt': 'obsolete\n' });
        const result = await tools.run('apply_patch', {
          input:
            '*** Begin Patch\n*** Add File: nested/new.txt\n+created\n*** Delete File: delete.txt\n*** Update File: modify.txt\n@@\n-line2\n+changed\n*** End Patch',
        });
        expect(result.text).toBe('Success. Updated the following files:\nA /nested/new.txt\nM /modify.txt\nD /delete.txt');
        expect(await backend.readText('/nested/new.txt')).toBe('created\n');
        expect(await backend.readText('/modify.txt')).toBe('line1\nchanged\n');
        expect(await backend.exists('/delete.txt')).toBe(false);
        expect(result.changed.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
          { path: '/delete.txt', version: -1 },
          { path: '/modify.txt', version: (await backend.stat('/modify.txt')).version },
          { path: '/nested/new.txt', version: (await backend.stat('/nested/new.txt')).version },
        ]);
      });

      it('applies multiple chunks', async () => {
        const { backend, tools } = await patchTools({ '/multi.txt': 'line1\nline2\nline3\nline4\n' });
        const result = await tools.run('apply_patch', {
          input: '*** Begin Patch\n*** Update File: multi.txt\n@@\n-line2\n+changed2\n@@\n-line4\n+changed4\n*** End Patch',
        });
        expect(result.text).toBe('Success. Updated the following files:\nM /multi.txt');
        expect(await backend.readText('/multi.txt')).toBe('line1\nchanged2\nline3\nchanged4\n');
      });

      const bytesCases: [string, string, string, string][] = [
        [
          'preserves CRLF from the target file',
          'one\r\ntwo\r\nthree\r\n',
          '@@\n-one\n+uno\n@@\n two\n+\n+between\n three',
          'uno\r\ntwo\r\n\r\nbetween\r\nthree\r\n',
        ],
        ['preserves change order with repeated lines', 'a\nb\n', '@@\n-a\n-b\n+b\n+b\n+a', 'b\nb\na\n'],
        ['preserves a repeated context line’s own ending', 'same\r\nsame\n', '@@\n-same\n same', 'same\n'],
        ['preserves untouched mixed line endings', 'one\r\ntwo\nthree\r\nfour\n', '@@\n one\n two\n-three\n+THREE\n four', 'one\r\ntwo\nTHREE\r\nfour\n'],
        ['uses CRLF for a new trailing newline', 'one\r\ntwo', '@@\n-one\n+ONE', 'ONE\r\ntwo\r\n'],
        ['appends a trailing newline', 'no newline at end', '@@\n-no newline at end\n+first line\n+second line', 'first line\nsecond line\n'],
      ];
      for (const [name, input, body, expected] of bytesCases) {
        it(name, async () => {
          const { backend, tools } = await patchTools({ '/f.txt': utf8(input) });
          const result = await tools.run('apply_patch', { input: wrap(`*** Update File: f.txt\n${body}`) });
          expect(result.text).toBe('Success. Updated the following files:\nM /f.txt');
          expect(new TextDecoder().decode(await backend.readFile('/f.txt'))).toBe(expected);
        });
      }

      it('moves a file to a new directory, and a move overwrites an existing destination', async () => {
        const { backend, tools } = await patchTools({ '/old/name.txt': 'from\n', '/renamed/dir/name.txt': 'existing\n' });
        const result = await tools.run('apply_patch', { input: wrap('*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-from\n+new') });
        expect(result.text).toBe('Success. Updated the following files:\nM /renamed/dir/name.txt');
        expect(await backend.exists('/old/name.txt')).toBe(false);
        expect(await backend.readText('/renamed/dir/name.txt')).toBe('new\n');
      });

      it("the bare patch text as the arguments (Codex’s freeform tool input), also behind `apply_patch <<'EOF'`", async () => {
        const { backend, tools } = await patchTools({});
        expect(await tools.call('apply_patch', wrap('*** Add File: a.txt\n+a'))).toBe('Success. Updated the following files:\nA /a.txt');
        const heredoc = `apply_patch <<'EOF'\n${wrap('*** Add File: b.txt\n+b')}\nEOF\n`;
        expect(await tools.call('apply_patch', heredoc)).toBe('Success. Updated the following files:\nA /b.txt');
        expect(await tools.call('apply_patch', { input: heredoc.replace('b.txt', 'c.txt') })).toBe('Success. Updated the following files:\nA /c.txt');
        expect(await backend.readText('/b.txt')).toBe('b\n');
      });

      it('Add File overwrites an existing file', async () => {
        const { backend, tools } = await patchTools({ '/duplicate.txt': 'old content\n' });
        const result = await tools.run('apply_patch', { input: wrap('*** Add File: duplicate.txt\n+new content') });
        expect(result.text).toBe('Success. Updated the following files:\nA /duplicate.txt');
        expect(await backend.readText('/duplicate.txt')).toBe('new content\n');
      });

      it("refuses, with Codex's reason and what to do: empty patch, missing context, missing file, empty update, directory, bad header", async () => {
        const { backend, tools } = await patchTools({ '/modify.txt': 'line1\nline2\n', '/dir/x.txt': 'x\n' });
        const before = await backend.snapshot();
        const empty = await tools.run('apply_patch', { input: '*** Begin Patch\n*** End Patch' });
        expectFailure(empty, 'EINVAL');
        expect(empty.text).toMatch(/^Error: EINVAL: No files were modified/);
        const context = await tools.run('apply_patch', { input: wrap('*** Update File: modify.txt\n@@\n-missing\n+changed') });
        expectFailure(context, 'ENOMATCH');
        expect(context.text).toMatch(/^Error: ENOMATCH: Failed to find expected lines in \/modify\.txt \(chunk 1 of 1, at line 3 of the patch\):\nmissing\n/);
        expect(context.text).toMatch(/No file was changed\./);
        const deleteMissing = await tools.run('apply_patch', { input: wrap('*** Delete File: missing.txt') });
        expectFailure(deleteMissing, 'ENOENT');
        expect(deleteMissing.text).toMatch(/^Error: ENOENT: Failed to delete file \/missing\.txt: No such file or directory/);
        const emptyUpdate = await tools.run('apply_patch', { input: wrap('*** Update File: foo.txt') });
        expectFailure(emptyUpdate, 'EINVAL');
        expect(emptyUpdate.text).toMatch(/^Error: EINVAL: Invalid patch hunk on line 2: Update file hunk for path 'foo\.txt' is empty\. No file was changed/);
        const updateMissing = await tools.run('apply_patch', { input: wrap('*** Update File: missing.txt\n@@\n-old\n+new') });
        expectFailure(updateMissing, 'ENOENT');
        expect(updateMissing.text).toMatch(/^Error: ENOENT: Failed to read file to update \/missing\.txt: No such file or directory/);
        const deleteDir = await tools.run('apply_patch', { input: wrap('*** Delete File: dir') });
        expectFailure(deleteDir, 'EISDIR');
        expect(deleteDir.text).toMatch(/^Error: EISDIR: Failed to delete file \/dir: it is a directory/);
        const header = await tools.run('apply_patch', { input: wrap('*** Frobnicate File: foo') });
        expectFailure(header, 'EINVAL');
        expect(header.text).toBe(
          "Error: EINVAL: Invalid patch hunk on line 2: '*** Frobnicate File: foo' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'. No file was changed; fix it and send the whole patch again.",
        );
        expect(await backend.snapshot()).toEqual(before);
      });

      it("names a model's common slips: an Add File line without '+', a code fence, a removal written as a context line", async () => {
        const { backend, tools } = await patchTools();
        await backend.writeFile('/log.ts', 'function f(x) {\n  console.log(x);\n}\n');
        const before = await backend.snapshot();
        const plain = await tools.run('apply_patch', { input: wrap('*** Add File: src/n.ts\nexport const n = 1;') });
        expect(plain.text).toBe(
          "Error: EINVAL: Invalid patch hunk on line 3: 'export const n = 1;' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'. Every line of an Add File section starts with '+': this line follows the '*** Add File: src/n.ts' section without one. No file was changed; fix it and send the whole patch again.",
        );
        // A mistyped header (no colon) after an Add File is not told to take a '+'.
        const header = await tools.run('apply_patch', { input: wrap('*** Add File: src/n.ts\n+n\n*** Update File log.ts\n@@\n-x\n+y') });
        expect(header.text).toBe(
          "Error: EINVAL: Invalid patch hunk on line 4: '*** Update File log.ts' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'. No file was changed; fix it and send the whole patch again.",
        );
        const fenced = await tools.run('apply_patch', { input: `\`\`\`\n${wrap('*** Add File: a.txt\n+a')}\n\`\`\`` });
        expect(fenced.text).toBe(
          "Error: EINVAL: Invalid patch: The first line of the patch must be '*** Begin Patch': this one opens a code fence (```); send the patch without the fence lines. No file was changed; fix it and send the whole patch again.",
        );
        const spaced = await tools.run('apply_patch', { input: wrap('*** Update File: log.ts\n@@\n -  console.log(x);\n +  console.log(y);') });
        expect(spaced.code).toBe('ENOMATCH');
        expect(spaced.text).toContain(
          "The line ' -  console.log(x);' begins with a space, which makes it a context line that the file must hold as it is; a line to remove starts with '-', a line to add with '+', in the first column. Make the chunk's context",
        );
        expect(await backend.snapshot()).toEqual(before);
      });

      it('a failure after an earlier file applied leaves nothing written (Codex would keep the earlier file)', async () => {
        const { backend, tools } = await patchTools();
        const result = await tools.run('apply_patch', { input: wrap('*** Add File: created.txt\n+hello\n*** Update File: missing.txt\n@@\n-old\n+new') });
        expectFailure(result, 'ENOENT');
        expect(await backend.exists('/created.txt')).toBe(false);
      });
    });

    describe("Codex's tests/two_hunks.rs, conflict.rs, suite/cli.rs and lib.rs test_apply_patch_fails_on_write_error", () => {
      it('two sections updating one file apply in order (multiple_non_overlapping_hunks)', async () => {
        const { backend, tools } = await patchTools({ '/f.txt': 'line1\nline2\nline3\nline4\nline5\n' });
        const result = await tools.run('apply_patch', { input: wrap('*** Update File: f.txt\n@@\n-line2\n+foo\n*** Update File: f.txt\n@@\n-line4\n+bar') });
        expect(result.text).toBe('Success. Updated the following files:\nM /f.txt\nM /f.txt');
        expect(await backend.readText('/f.txt')).toBe('line1\nfoo\nline3\nbar\nline5\n');
      });

      it('overlapping sections fail, and change nothing (overlapping_hunks_should_fail, conflicting_patches_error)', async () => {
        for (const [input, body] of [
          ['A\nB\nC\nD\n', '*** Update File: f.txt\n@@\n-B\n+X\n*** Update File: f.txt\n@@\n-B\n+Y'],
          ['one\ntwo\nthree\n', '*** Update File: f.txt\n@@\n-two\n+twoA\n*** Update File: f.txt\n@@\n-two\n+twoB'],
        ] as const) {
          const { backend, tools } = await patchTools({ '/f.txt': input });
          expectFailure(await tools.run('apply_patch', { input: wrap(body) }), 'ENOMATCH');
          expect(await backend.readText('/f.txt')).toBe(input);
        }
        const { backend, tools } = await patchTools({ '/f.txt': 'one\ntwo\nthree\n' });
        await tools.run('apply_patch', { input: wrap('*** Update File: f.txt\n@@\n-two\n+twoX') });
        expect(await backend.readText('/f.txt')).toBe('one\ntwoX\nthree\n');
      });

      it('adds a file, then updates it in a second call (test_apply_patch_cli_add_and_update)', async () => {
        const { backend, tools } = await patchTools();
        expect((await tools.run('apply_patch', { input: wrap('*** Add File: cli_test.txt\n+hello') })).text).toBe(
          'Success. Updated the following files:\nA /cli_test.txt',
        );
        expect((await tools.run('apply_patch', { input: wrap('*** Update File: cli_test.txt\n@@\n-hello\n+world') })).text).toBe(
          'Success. Updated the following files:\nM /cli_test.txt',
        );
        expect(await backend.readText('/cli_test.txt')).toBe('world\n');
      });

      it('a write the backend refuses (here over a limit) fails whole (test_apply_patch_fails_on_write_error)', async () => {
        const backend = await make({ limits: { maxFileBytes: 8 }, files: { '/a.txt': 'a\n', '/b.txt': 'before\n' } });
        const tools = createTools(backend, { dialect: 'openai' });
        const before = await backend.snapshot();
        const result = await tools.run('apply_patch', {
          input: wrap('*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-before\n+after, and far too long'),
        });
        expectFailure(result, 'ETOOBIG');
        expect(result.text).toMatch(/^Error: ETOOBIG: \/b\.txt would be .* over the per-file limit of 8 B\. Nothing was written\./);
        expect(await backend.snapshot()).toEqual(before);
      });
    });

    describe("OpenAI's V4A helper tests (openai-agents-python tests/test_apply_diff.py), as operations", () => {
      const update = async (input: string, diff: string) => {
        const { backend, tools } = await patchTools({ '/f.txt': utf8(input) });
        const result = await tools.run('apply_patch', { operation: { type: 'update_file', path: '/f.txt', diff } });
        return { result, text: new TextDecoder().decode(await backend.readFile('/f.txt')) };
      };
      const create = async (diff: string) => {
        const { backend, tools } = await patchTools();
        const result = await tools.run('apply_patch', { operation: { type: 'create_file', path: 'new.txt', diff } });
        return { result, text: result.isError ? null : new TextDecoder().decode(await backend.readFile('/new.txt')) };
      };
      const CLASSES = 'class BaseClass\n    def search():\n        pass\n\nclass Subclass\n    def search():\n        pass\n';

      it('a floating hunk adds lines to an empty file; a CRLF diff gives CRLF lines', async () => {
        expect((await update('', '@@\n+hello\n+world')).text).toBe('hello\nworld\n');
        expect((await update('', '@@\r\n+hello\r\n+world')).text).toBe('hello\r\nworld\r\n');
      });

      it('create_file: every line starts with "+"; the diff’s own line endings; a last "+" line ends the file with one', async () => {
        const bad = await create('plain line');
        expectFailure(bad.result, 'EINVAL');
        expect(bad.result.text).toMatch(/^Error: EINVAL: Invalid create_file diff for new\.txt on line 1: Invalid Add File Line: plain line\./);
        expect((await create('+hello\n+world\n+')).text).toBe('hello\nworld\n');
        expect((await create('+hello\r\n+world\r\n+')).text).toBe('hello\r\nworld\r\n');
        const created = await create('+hello\n+world\n+');
        expect(created.result.text).toBe('Success. Updated the following files:\nA /new.txt');
      });

      it('a contextual replacement after an anchor; CRLF and LF files keep their endings whatever the diff’s', async () => {
        expect((await update('line1\nline2\nline3\n', '@@ line1\n-line2\n+updated\n line3')).text).toBe('line1\nupdated\nline3\n');
        expect((await update('line1\r\nline2\r\nline3\r\n', '@@ line1\n-line2\n+updated\n line3')).text).toBe('line1\r\nupdated\r\nline3\r\n');
        expect((await update('line1\nline2\nline3\n', '@@ line1\r\n-line2\r\n+updated\r\n line3')).text).toBe('line1\nupdated\nline3\n');
        expect((await update('line1\r\nline2\r\nline3\r\n', '@@ line1\r\n-line2\r\n+updated\r\n line3')).text).toBe('line1\r\nupdated\r\nline3\r\n');
      });

      it('stacked anchors: the worked example of the tool description', async () => {
        const diff =
          '@@ class BaseClass\n@@     def search():\n-        pass\n+        raise NotImplementedError()\n\n@@ class Subclass\n@@     def search():\n-        pass\n+        raise NotImplementedError()';
        expect((await update(CLASSES, diff)).text).toBe(CLASSES.replaceAll('        pass', '        raise NotImplementedError()'));
      });

      it('stacked anchors may name again a parent an earlier chunk entered', async () => {
        const input = 'class Target\n    def first():\n        pass\n\n    def second():\n        pass\n';
        const diff =
          '@@ class Target\n@@     def first():\n-        pass\n+        return 1\n@@ class Target\n@@     def second():\n-        pass\n+        return 2';
        expect((await update(input, diff)).text).toBe('class Target\n    def first():\n        return 1\n\n    def second():\n        return 2\n');
      });

      it('stacked anchors narrow to the named block (an earlier matching body is skipped)', async () => {
        const input = 'class First\n    def target():\n        return 0\n\nclass Second\n    def helper():\n        pass\n\n    def target():\n        pass\n';
        const diff = '@@ class Second\n@@     def target():\n-        pass\n+        return 1';
        expect((await update(input, diff)).text).toBe(input.replace('        pass\n', '        pass\n').replace(/ {8}pass\n$/, '        return 1\n'));
      });

      it.each([
        [
          "lines not found: the closest lines, and the first of the chunk's lines that departs from the file there",
          "function h(req, res) {\n  const user = getUser(req);\n  if (!user) {\n    return res.status(401).send('no');\n  }\n}\n",
          "@@\n   if (!user) {\n-    return res.status(403).send('no');\n+    return res.status(403).send('nope');\n   }",
          "The first line of the chunk matches line 3; the first line that differs is line 4:\n  the chunk:     return res.status(403).send('no');\n  line 4:        return res.status(401).send('no');\nNo file was changed.",
        ],
        [
          'lines not found whose first line the file holds many times: the place that matches longest, past the closest lines shown',
          Array.from({ length: 8 }, (_, i) => `if (x) {\n  call${i}();\n  other${i}();\n}\n`).join(''),
          '@@\n if (x) {\n   call6();\n-  other6X();\n+  done();\n }',
          'The first line of the chunk matches line 25; the first line that differs is line 27:\n  the chunk:   other6X();\n  line 27:     other6();\nNo file was changed.',
        ],
      ])('%s', async (_name, file, diff, says) => {
        const out = await update(file, diff);
        expectFailure(out.result, 'ENOMATCH');
        expect(out.result.text).toContain(says);
        expect(out.text).toBe(file);
      });

      it('a chunk whose lines are above the chunk before it: says so, not that a later line differs', async () => {
        const file = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join('');
        const out = await update(file, '@@\n line 20\n-line 21\n+X\n@@\n line 3\n-line 4\n+Y\n line 5');
        expectFailure(out.result, 'ENOMATCH');
        expect(out.result.text).toContain(
          "The chunk's lines are lines 3-5, above line 22 where its search began (after the chunk before it): a section's chunks go in the order of their lines in the file.",
        );
        expect(out.result.text).not.toContain('the difference is in a later line');
      });

      it('an anchor that is not found is an error naming it, the chunk and the closest lines (a single one too: the helper ignores it)', async () => {
        const single = await update('a\nb\n', '@@ nope\n-b\n+B');
        expectFailure(single.result, 'ENOMATCH');
        expect(single.result.text).toMatch(/^Error: ENOMATCH: Failed to find context 'nope' in \/f\.txt \(chunk 1 of 1, at line 1 of the diff\)\./);
        const partly = await update(
          'class Target\n    def helper():\n        pass\n\n    def desired():\n        return 1\n',
          '@@ class Target\n@@     def missing():\n-        pass\n+        return 99',
        );
        expectFailure(partly.result, 'ENOMATCH');
        expect(partly.result.text).toMatch(/Failed to find context ' {4}def missing\(\):' in \/f\.txt after line 1 \(chunk 1 of 1/);
        expect(partly.result.text).toMatch(/Closest lines in \/f\.txt:\n {5}5\t {4}def desired\(\):\n {5}2\t {4}def helper\(\):\nNo file was changed\./);
        const firstMissing = await update(
          'class Wrong\n    def desired():\n        pass\n',
          '@@ class Target\n@@     def desired():\n-        pass\n+        return 99',
        );
        expectFailure(firstMissing.result, 'ENOMATCH');
        expect(firstMissing.result.text).toMatch(/Failed to find context 'class Target'/);
        const thenBare = await update('a\nb\n', '@@ missing\n@@\n-b\n+B');
        expectFailure(thenBare.result, 'ENOMATCH');
      });

      it('a trailing bare @@ after an anchor is accepted', async () => {
        expect((await update('class Only\n    def run():\n        pass\n', '@@ class Only\n@@\n-        pass\n+        return 1')).text).toBe(
          'class Only\n    def run():\n        return 1\n',
        );
      });

      it('a context mismatch (here under a unified-diff header) is an error, and the file is unchanged', async () => {
        const { result, text } = await update('one\ntwo\n', '@@ -1,2 +1,2 @@\n x\n-two\n+2');
        expectFailure(result, 'ENOMATCH');
        expect(result.text).toMatch(/'@@ -1,2 \+1,2 @@' is a unified-diff header: here an @@ line names a line of the file/);
        expect(text).toBe('one\ntwo\n');
      });
    });

    describe('the contract', () => {
      it('definitions: the built-in type plus a JSON Schema of the Codex form', async () => {
        const { tools } = await patchTools();
        expect(tools.definitions).toHaveLength(1);
        expect(tools.definitions[0]).toMatchObject({
          name: 'apply_patch',
          type: 'apply_patch',
          parameters: { type: 'object', required: ['input'], additionalProperties: false, properties: { input: { type: 'string' } } },
        });
        const custom = createTools(await make(), { dialect: 'openai', descriptions: { apply_patch: 'Patch files.' } });
        expect(custom.definitions[0]!.description).toBe('Patch files.');
      });

      it('bad arguments are EINVAL saying what to pass; a whole apply_patch_call item is accepted', async () => {
        const { backend, tools } = await patchTools({ '/a.txt': 'a\n' });
        const cases: [unknown, RegExp][] = [
          [{}, /missing required argument "input" for apply_patch/],
          [{ input: 5 }, /argument "input" of apply_patch must be a string/],
          [{ input: 'x', path: '/a' }, /unknown argument "path" for apply_patch\. Valid arguments: input/],
          [
            { operation: { type: 'rename_file', path: '/a.txt' } },
            /"operation\.type" of apply_patch must be one of "create_file", "update_file", "delete_file"/,
          ],
          [{ operation: { type: 'update_file', path: '/a.txt' } }, /"operation\.diff" of apply_patch must be a string for update_file/],
          [{ operation: { type: 'delete_file' } }, /"operation\.path" of apply_patch must be a string/],
          [[1], /must be \{ input \} or \{ operation/],
          ['{not json', /a JSON object or the patch text .*; got a string that is neither/],
        ];
        for (const [args, message] of cases) {
          const result = await tools.run('apply_patch', args);
          expectFailure(result, 'EINVAL');
          expect(result.text, JSON.stringify(args)).toMatch(message);
        }
        const item = {
          type: 'apply_patch_call',
          id: 'apc_1',
          call_id: 'call_1',
          status: 'completed',
          created_by: 'x',
          operation: { type: 'delete_file', path: '/a.txt' },
        };
        expectFailure(await tools.run('apply_patch', { operation: item.operation, call_id: 'call_1' }), 'EINVAL');
        expect((await tools.run('apply_patch', item)).text).toBe('Success. Updated the following files:\nD /a.txt');
        expect(await backend.exists('/a.txt')).toBe(false);
        const asJson = await tools.run('apply_patch', JSON.stringify({ input: wrap('*** Add File: b.txt\n+b') }));
        expect(asJson.text).toBe('Success. Updated the following files:\nA /b.txt');
      });

      it('a patch touching several files changes nothing unless every chunk of every file applies', async () => {
        const files = { '/a.txt': 'a1\na2\n', '/b.txt': 'b1\nb2\n', '/c.txt': 'c\n' };
        const { backend, tools } = await patchTools(files);
        const before = await backend.snapshot();
        const result = await tools.run('apply_patch', {
          input: wrap(
            '*** Update File: a.txt\n@@\n-a1\n+A1\n*** Delete File: c.txt\n*** Add File: d.txt\n+d\n*** Update File: b.txt\n@@\n-b1\n+B1\n@@\n-nope\n+x',
          ),
        });
        expectFailure(result, 'ENOMATCH');
        expect(result.text).toMatch(
          /^Error: ENOMATCH: Failed to find expected lines in \/b\.txt after line 1 \(chunk 2 of 2, at line 13 of the patch\):\nnope\n/,
        );
        expect(await backend.snapshot()).toEqual(before);
      });

      it('a file added, then updated, then moved within one patch', async () => {
        const { backend, tools } = await patchTools();
        const result = await tools.run('apply_patch', {
          input: wrap('*** Add File: a.txt\n+one\n+two\n*** Update File: a.txt\n*** Move to: b/a.txt\n@@\n one\n-two\n+TWO'),
        });
        expect(result.text).toBe('Success. Updated the following files:\nA /a.txt\nM /b/a.txt');
        expect(await dump(backend)).toEqual({ b: null, 'b/a.txt': 'one\nTWO\n' });
        expect(result.changed.map((c) => c.path)).toEqual(['/b/a.txt']);
      });

      it('context is found ignoring trailing, then surrounding whitespace, then typographic punctuation; the file keeps the rest', async () => {
        const { backend, tools } = await patchTools({ '/u.py': 'x = 1   \n    y = “quoted” – dash\u00a0here\nz = 3\n' });
        const result = await tools.run('apply_patch', { input: wrap('*** Update File: u.py\n@@\n x = 1\n-y = "quoted" - dash here\n+y = 2\n z = 3') });
        expect(result.isError, result.text).toBe(false);
        expect(await backend.readText('/u.py')).toBe('x = 1   \ny = 2\nz = 3\n');
      });

      it('needs no prior read; but a file this session read that changed since is ESTALE, and sessions share what they read', async () => {
        const backend = await make({ files: { '/a.txt': 'one\n' } });
        const session = createSession();
        const reader = createTools(backend, { session });
        const patcher = createTools(backend, { dialect: 'openai', session });
        const patch = { input: wrap('*** Update File: a.txt\n@@\n-one\n+two') };
        expect((await patcher.run('apply_patch', patch)).isError).toBe(false); // no read needed
        await reader.run('read_file', { path: '/a.txt' });
        await backend.writeFile('/a.txt', 'two\nthree\n'); // changed behind the session's back
        const stale = await patcher.run('apply_patch', { input: wrap('*** Update File: a.txt\n@@\n-three\n+3') });
        expectFailure(stale, 'ESTALE');
        expect(stale.text).toMatch(/^Error: ESTALE: \/a\.txt changed since this session last read or wrote it\. No file was changed\./);
        await reader.run('read_file', { path: '/a.txt' });
        expect((await patcher.run('apply_patch', { input: wrap('*** Update File: a.txt\n@@\n-three\n+3') })).isError).toBe(false);
        // What apply_patch wrote counts as read: the other tool set edits it without reading again.
        const edited = await reader.run('edit_file', { path: '/a.txt', old_string: '3', new_string: 'III' });
        expect(edited.isError, edited.text).toBe(false);
        expect(await backend.readText('/a.txt')).toBe('two\nIII\n');
      });

      it('a stale big file whose first place holds a line too long to show: the other places are shown', async () => {
        const rows = Array.from({ length: 3000 }, (_, i) => `row ${i + 1}`);
        rows[5] = 'L'.repeat(20_000);
        const { backend, tools } = await patchTools({ '/p.txt': `${rows.join('\n')}\n` });
        expect((await tools.run('apply_patch', { input: wrap('*** Update File: p.txt\n@@\n row 2999\n-row 3000\n+row 3000!') })).isError).toBe(false);
        await backend.writeFile('/p.txt', (await backend.readText('/p.txt')).replace('row 2000\n', 'row 2000 changed\n'));
        const stale = await tools.run('apply_patch', { input: wrap('*** Update File: p.txt\n@@\n row 5\n-row 7\n+x\n@@\n row 1999\n-row 2000\n+y') });
        expectFailure(stale, 'ESTALE');
        expect(stale.text).toContain('No file was changed. Lines 1996-2003 of 3000 now read:\nrow 1996\n');
      });

      it('with apply_patch alone, a stale file is shown as it is now, and the next patch written against it applies', async () => {
        const { backend, tools } = await patchTools({ '/a.py': 'x = 1\ny = 2\n' });
        expect((await tools.run('apply_patch', { input: wrap('*** Update File: a.py\n@@\n-x = 1\n+x = 10') })).isError).toBe(false);
        await backend.writeFile('/a.py', 'x = 10\ny = 3\n'); // a person edits another line
        const stale = await tools.run('apply_patch', { input: wrap('*** Update File: a.py\n@@\n-x = 10\n+x = 11') });
        expectFailure(stale, 'ESTALE');
        expect(stale.text).toBe(
          'Error: ESTALE: /a.py changed since this session last read or wrote it. No file was changed. It now reads:\nx = 10\ny = 3\n(end of /a.py) Write the patch against it and send it again.',
        );
        expect(await backend.readText('/a.py')).toBe('x = 10\ny = 3\n');
        // The refusal was the read: the patch applies now, keeping the person's line.
        expect((await tools.run('apply_patch', { input: wrap('*** Update File: a.py\n@@\n-x = 10\n+x = 11') })).isError).toBe(false);
        expect(await backend.readText('/a.py')).toBe('x = 11\ny = 3\n');
        // A big file shows its first lines and says so; a binary one says what it is.
        await backend.writeFile('/a.py', `${'line of text\n'.repeat(5000)}`);
        const big = await tools.run('apply_patch', { input: wrap('*** Delete File: a.py') });
        expectFailure(big, 'ESTALE');
        expect(big.text).toMatch(
          /No file was changed\. Its first 1230 of 5000 lines now read:\n(line of text\n){1230}\(the patch's context lines are checked against the whole file\)/,
        );
        expect(big.text.length).toBeLessThan(17_000);
        // An update of a big file shows where its chunks are now (found, or the closest lines), not its first lines.
        const numbered = Array.from({ length: 2000 }, (_, i) => `line ${i + 1} of the file\n`).join('');
        await backend.writeFile('/a.py', numbered);
        expect((await tools.run('apply_patch', { input: wrap('*** Delete File: a.py') })).isError).toBe(true); // (seen now)
        await backend.writeFile('/a.py', numbered.replace('line 1999 of the file', 'line 1999 changed'));
        const update = await tools.run('apply_patch', {
          input: wrap(
            '*** Update File: a.py\n@@\n line 10 of the file\n-line 11 of the file\n+eleven\n@@\n line 1997 of the file\n-line 1998 of the file\n+x\n line 1999 of the file',
          ),
        });
        expectFailure(update, 'ESTALE');
        expect(update.text).toBe(
          'Error: ESTALE: /a.py changed since this session last read or wrote it. No file was changed. Lines 7-14 of 2000 now read:\n' +
            Array.from({ length: 8 }, (_, i) => `line ${i + 7} of the file`).join('\n') +
            '\nLines 1994-2000 of 2000 now read:\nline 1994 of the file\nline 1995 of the file\nline 1996 of the file\nline 1997 of the file\nline 1998 of the file\nline 1999 changed\nline 2000 of the file\n' +
            "(the rest of /a.py is not shown; the patch's context lines are checked against the whole file) Write the patch against it and send it again.",
        );
        await backend.writeFile('/a.py', new Uint8Array([0, 1, 2]));
        expect((await tools.run('apply_patch', { input: wrap('*** Delete File: a.py') })).text).toMatch(
          /No file was changed\. It is now a binary file of 3 bytes/,
        );
        expect(await backend.exists('/a.py')).toBe(true);
        expect((await tools.run('apply_patch', { input: wrap('*** Delete File: a.py') })).isError).toBe(false);
      });

      it('keeps a BOM; refuses to update a binary file (it may replace or delete one) and a path above the root', async () => {
        const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('a\nb\n')]);
        const { backend, tools } = await patchTools({ '/bom.txt': bom, '/bin': new Uint8Array([0, 1, 2]) });
        expect((await tools.run('apply_patch', { input: wrap('*** Update File: bom.txt\n@@\n-b\n+B') })).isError).toBe(false);
        expect([...(await backend.readFile('/bom.txt'))]).toEqual([0xef, 0xbb, 0xbf, ...utf8('a\nB\n')]);
        const before = await backend.snapshot();
        const binary = await tools.run('apply_patch', { input: wrap('*** Update File: bin\n@@\n-x\n+y') });
        expectFailure(binary, 'EBINARY');
        expect(binary.text).toMatch(
          /^Error: EBINARY: \/bin is a binary file; apply_patch updates text files only \(it may replace or delete it\)\. No file was changed\./,
        );
        const above = await tools.run('apply_patch', { input: wrap('*** Add File: ok.txt\n+ok\n*** Add File: ../../etc/passwd\n+x') });
        expectFailure(above, 'EINVAL');
        expect(above.text).toBe(
          'Error: EINVAL: In the patch\'s \'*** Add File: ../../etc/passwd\' section: Invalid path "../../etc/passwd": ".." goes above the root "/". No file was changed. Use "/etc/passwd".',
        );
        // Adding under a file is refused, with what to do instead, in the patch's words; so is a patch
        // that deletes the file and adds under it (a file does not become a directory), asked or not.
        const under = await tools.run('apply_patch', { input: wrap('*** Add File: bom.txt/x\n+x') });
        expect(under.text).toBe(
          'Error: ENOTDIR: /bom.txt is a file, so /bom.txt/x cannot exist under it. Check the path in the patch: nothing can exist under a file. No file was changed.',
        );
        // Updating or deleting under a file gets the same sentence, which suits a path that cannot exist.
        for (const section of ['*** Update File: bom.txt/x\n@@\n-x\n+y', '*** Delete File: bom.txt/x']) {
          expect((await tools.run('apply_patch', { input: wrap(section) })).text).toBe(
            'Error: ENOTDIR: /bom.txt is a file, so /bom.txt/x cannot exist under it. Check the path in the patch: nothing can exist under a file. No file was changed.',
          );
        }
        const replaced = wrap('*** Delete File: bom.txt\n*** Add File: bom.txt/x\n+x');
        expectFailure(await tools.run('apply_patch', { input: replaced }), 'ENOTDIR');
        const asked = createTools(backend, { dialect: 'openai', approve: async () => ({ allow: true }) });
        expectFailure(await asked.run('apply_patch', { input: replaced }), 'ENOTDIR');
        expect(await backend.snapshot()).toEqual(before);
        // A binary file may be deleted, or replaced whole.
        expect((await tools.run('apply_patch', { input: wrap('*** Add File: bin\n+text now') })).text).toBe('Success. Updated the following files:\nA /bin');
        expect(await backend.readText('/bin')).toBe('text now\n');
        await backend.writeFile('/img.png', new Uint8Array([0x89, 0, 1]));
        expect((await tools.run('apply_patch', { operation: { type: 'delete_file', path: '/img.png' } })).text).toBe(
          'Success. Updated the following files:\nD /img.png',
        );
      });

      it('a unified diff is refused with what the format is', async () => {
        const { tools } = await patchTools({ '/a.txt': 'a\n' });
        const result = await tools.run('apply_patch', { input: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n' });
        expectFailure(result, 'EINVAL');
        expect(result.text).toBe(
          "Error: EINVAL: Invalid patch: The first line of the patch must be '*** Begin Patch'. This looks like a unified diff: apply_patch takes its own format ('*** Update File: path', then @@ chunks of ' ', '-' and '+' lines, no line numbers). No file was changed; fix it and send the whole patch again.",
        );
      });

      it("the heredoc wrapper models sometimes send is accepted, as Codex's lenient mode does", async () => {
        const { backend, tools } = await patchTools();
        const result = await tools.run('apply_patch', { input: "<<'EOF'\n*** Begin Patch\n*** Add File: h.txt\n+hi\n*** End Patch\nEOF\n" });
        expect(result.text).toBe('Success. Updated the following files:\nA /h.txt');
        expect(await backend.readText('/h.txt')).toBe('hi\n');
      });
    });
  });
}
