/**
 * Gemini CLI's own tool tests, ported to the 'gemini' dialect (google-gemini/gemini-cli,
 * packages/core/src/tools/*.test.ts, release 0.56 nightly of August 2026): what the model
 * receives for a call on a file tree, and the files after it. Each case names the upstream test
 * it comes from. Upstream's files live under a temporary root; here the root is `/`, so a
 * path upstream gives relative to its root comes back absolute (docs/dialects.md). Where the
 * result differs on purpose, the case asserts ours and docs/dialects.md lists it ("Gemini CLI's
 * tests, and where we differ"). A model sees Gemini CLI's `error.message` for a failed call
 * (scheduler/tool-executor.ts), which is what the error cases compare with.
 */
import { describe, expect, it } from 'vitest';
import { createTools, type StateBackendOptions } from '../../src/index.ts';
import { makePdf, makePng } from '../media-fixtures.ts';
import { manualClock, type BackendFactory } from './harness.ts';

export function geminiUpstreamSuite(make: BackendFactory) {
  const setup = async (files: StateBackendOptions['files'] = {}, options: Omit<StateBackendOptions, 'files'> = {}) => {
    const backend = await make({ files, ...options });
    return { backend, tools: createTools(backend, { dialect: 'gemini' }) };
  };

  /** One replace call on `/t.txt` holding `content`: the result and the file after it. */
  async function replaceIn(content: string, args: { old_string: string; new_string: string; allow_multiple?: boolean }) {
    const { backend, tools } = await setup({ '/t.txt': content });
    const result = await tools.run('replace', { file_path: '/t.txt', instruction: 'test', ...args });
    return { ...result, after: await backend.readText('/t.txt') };
  }

  // Gemini CLI's sentence, then what agentvfs adds (the closest lines: see gemini.test.ts).
  const VENDOR_NO_MATCH =
    "Error: ENOMATCH: Failed to edit, 0 occurrences found for old_string in /t.txt. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.";
  const NO_MATCH = expect.stringMatching(
    new RegExp(`^${VENDOR_NO_MATCH.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n(Closest lines|No line resembles|The file is empty)`),
  );

  describe("dialect 'gemini'", () => {
    describe("Gemini CLI's edit.test.ts (replace)", () => {
      // applyReplacement > 'should replace oldString with newString in currentContent' and
      // 'should handle $name' (it.each): $ sequences in new_string are literal text.
      const DOLLARS = [
        ['$ literal', "price is $100 and pattern end is ' '", 'price is $100', 'price is $200', "price is $200 and pattern end is ' '"],
        ["$' literal", 'foo', 'foo', "bar$'baz", "bar$'baz"],
        ['$& literal', 'hello world', 'hello', '$&-replacement', '$&-replacement world'],
        ['$` literal', 'prefix-middle-suffix', 'middle', 'new$`content', 'prefix-new$`content-suffix'],
        ['$1, $2 capture groups literal', 'test string', 'test', '$1$2replacement', '$1$2replacement string'],
        ['normal strings without problematic $', 'normal text replacement', 'text', 'string', 'normal string replacement'],
        [
          'complex regex patterns with $ at end',
          "| select('match', '^[sv]d[a-z]$')",
          "'^[sv]d[a-z]$'",
          "'^[sv]d[a-z]$' # updated",
          "| select('match', '^[sv]d[a-z]$' # updated)",
        ],
        ['$$ (escaped dollar)', 'price value', 'value', '$$100', 'price $$100'],
      ] as const;
      for (const [name, content, old_string, new_string, expected] of DOLLARS) {
        it(`applyReplacement: should handle ${name}`, async () => {
          const out = await replaceIn(content, { old_string, new_string });
          expect(out.after).toBe(expected);
          expect(out.text).toBe(`Successfully modified file: /t.txt (1 replacements). Here is the updated code:\n${expected}`);
        });
      }

      it("applyReplacement: 'multiple occurrences with $ sequences', 'empty replacement with problematic $' and 'should replace oldString … in currentContent'", async () => {
        expect((await replaceIn('foo bar foo baz', { old_string: 'foo', new_string: "test$'end", allow_multiple: true })).after).toBe(
          "test$'end bar test$'end baz",
        );
        expect((await replaceIn('hello old world old', { old_string: 'old', new_string: 'new', allow_multiple: true })).after).toBe('hello new world new');
        const none = await replaceIn('test content', { old_string: 'nothing', new_string: "replacement$'text" });
        expect(none.text).toEqual(NO_MATCH);
        expect(none.after).toBe('test content');
      });

      it("calculateReplacement: 'should perform an exact replacement' and 'should return 0 occurrences if no match is found'", async () => {
        expect((await replaceIn('hello world', { old_string: 'world', new_string: 'moon' })).after).toBe('hello moon');
        const none = await replaceIn('hello world', { old_string: 'nomatch', new_string: 'moon' });
        expect(none).toMatchObject({ code: 'ENOMATCH', text: NO_MATCH, after: 'hello world' });
      });

      it("calculateReplacement: 'should perform a flexible, whitespace-insensitive replacement' (differs: indentation kept per line)", async () => {
        // Gemini CLI: '  goodbye\n  moon\n' (every line at the first line's indentation). Here the
        // indentation correction keeps each line's own offset from the file.
        const out = await replaceIn('  hello\n    world\n', { old_string: 'hello\nworld', new_string: 'goodbye\nmoon' });
        expect(out.after).toBe('  goodbye\n    moon\n');
        expect(out.text).toMatch(
          /^Successfully modified file: \/t\.txt \(1 replacements\)\. Matched ignoring indentation .* Here is the updated code:\n {2}goodbye\n {4}moon\n$/,
        );
      });

      it("calculateReplacement: 'should preserve trailing newlines in flexible replacement (regression)' and 'should correctly rebase indentation in flexible replacement without double-indenting'", async () => {
        expect((await replaceIn('  line1\n  line2\n  line3\n', { old_string: 'line1\nline2', new_string: 'line1-replaced\nline2-replaced' })).after).toBe(
          '  line1-replaced\n  line2-replaced\n  line3\n',
        );
        expect(
          (await replaceIn('    if (a) {\n        foo();\n    }\n', { old_string: 'if (a) {\n    foo();\n}', new_string: 'if (a) {\n    bar();\n}' })).after,
        ).toBe('    if (a) {\n        bar();\n    }\n');
      });

      it("calculateReplacement: 'should correctly increment loop index in flexible replacement when allow_multiple is true (regression)' (differs: refused)", async () => {
        // Gemini CLI replaces both indented blocks. The shared corrections apply only when they give
        // exactly one match (SPEC §4), so this is EAMBIGUOUS and the file is unchanged.
        const out = await replaceIn('  match1\n  match2\n  match1\n  match2\n', {
          old_string: 'match1\nmatch2',
          new_string: 'replaced1\nreplaced2\nreplaced3',
          allow_multiple: true,
        });
        expect(out.code).toBe('EAMBIGUOUS');
        expect(out.text).toContain('it matches 2 places (starting at lines 1, 3); file unchanged.');
        expect(out.after).toBe('  match1\n  match2\n  match1\n  match2\n');
      });

      it("calculateReplacement: 'should NOT insert extra newlines in flexible replacement when old_string starts with a blank line (regression)' (differs: new_string re-indented)", async () => {
        // Gemini CLI: '  // some comment\n\n  function newFunc() {}' (new_string taken as indented).
        // Here new_string is shifted as far as the file is from old_string (2 columns); no extra newline either way.
        const out = await replaceIn('  // some comment\n\n  function oldFunc() {}', {
          old_string: '\nfunction oldFunc() {}',
          new_string: '\n  function newFunc() {}',
        });
        expect(out.after).toBe('  // some comment\n\n    function newFunc() {}');
      });

      // Gemini CLI's regex (intra-line whitespace) and fuzzy (10% edit distance) strategies are not
      // ported (docs/dialects.md "Other matching fallbacks"): each of these is the vendor's
      // 0-occurrences error here, file unchanged.
      const NOT_GUESSED = [
        [
          'should perform a regex-based replacement for flexible intra-line whitespace',
          '  function  myFunc( a, b ) {\n    return a + b;\n  }',
          'function myFunc(a, b) {',
          'const yourFunc = (a, b) => {',
        ],
        [
          'should perform a fuzzy replacement when exact match fails but similarity is high',
          'const myConfig = {\n  enableFeature: true,\n  retries: 3\n};',
          'const myConfig = {\n  enableFeature: true\n  retries: 3\n};',
          'const myConfig = {\n  enableFeature: false,\n  retries: 5\n};',
        ],
        [
          'should perform multiple fuzzy replacements if multiple valid matches are found',
          '\nfunction doIt() {\n  console.log("hello");\n}\n\nfunction doIt() {\n  console.log("hello");\n}\n',
          "function doIt() {\n  console.log('hello');\n}",
          'function doIt() {\n  console.log("bye");\n}',
        ],
        [
          'should correctly rebase indentation in fuzzy replacement without double-indenting',
          '    const myConfig = {\n      enableFeature: true,\n      retries: 3\n    };',
          'const myConfig = {\n  enableFeature: true\n  retries: 3\n};',
          'const myConfig = {\n  enableFeature: false,\n  retries: 5\n};',
        ],
        [
          'should NOT insert extra newlines when replacing a block preceded by a blank line (regression)',
          '\n  function oldFunc() {\n    // some code\n  }',
          'function  oldFunc() {\n    // some code\n  }',
          'function newFunc() {\n  // new code\n}',
        ],
      ] as const;
      for (const [name, content, old_string, new_string] of NOT_GUESSED) {
        it(`calculateReplacement: '${name}' (differs: not guessed)`, async () => {
          const out = await replaceIn(content, { old_string, new_string });
          expect(out).toMatchObject({ code: 'ENOMATCH', text: NO_MATCH, after: content });
        });
      }

      it("calculateReplacement: 'should NOT perform a fuzzy replacement when similarity is below threshold' and '… when the complexity (length * size) is too high'", async () => {
        const config = 'const myConfig = {\n  enableFeature: true,\n  retries: 3\n};';
        expect(await replaceIn(config, { old_string: 'function somethingElse() {\n  return false;\n}', new_string: 'x' })).toMatchObject({
          code: 'ENOMATCH',
          after: config,
        });
        const long = Array(200).fill('a'.repeat(2000)).join('\n');
        expect(await replaceIn(long, { old_string: `${'a'.repeat(2000)}c`, new_string: 'replacement' })).toMatchObject({ code: 'ENOMATCH', after: long });
      });

      it("validateToolParams: omission placeholders ('should reject … when old_string does not contain that placeholder', '… an additional placeholder not present in old_string', 'should allow … when all are already present in old_string', '… placeholder text in a string literal')", async () => {
        const refused =
          "Error: EINVAL: `new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.";
        const one = await replaceIn('old content', { old_string: 'old content', new_string: '(rest of methods ...)' });
        expect(one).toMatchObject({ text: refused, after: 'old content' });
        const more = await replaceIn('(rest of methods ...)', {
          old_string: '(rest of methods ...)',
          new_string: '(rest of methods ...)\n(unchanged code ...)',
        });
        expect(more).toMatchObject({ text: refused, after: '(rest of methods ...)' });
        const both = '(rest of methods ...)\n(unchanged code ...)';
        expect((await replaceIn(both, { old_string: both, new_string: '(unchanged code ...)\n(rest of methods ...)' })).after).toBe(
          '(unchanged code ...)\n(rest of methods ...)',
        );
        const literal = await replaceIn('const msg = "old";', { old_string: 'const msg = "old";', new_string: 'const msg = "(rest of methods ...)";' });
        expect(literal).toMatchObject({ isError: false, after: 'const msg = "(rest of methods ...)";' });
      });

      it("validateToolParams: 'should sanitize null bytes in absolute path during validation' (differs: a NUL byte is EINVAL)", async () => {
        // Gemini CLI strips the NUL and edits test.txt; a path with a NUL is an EINVAL error naming it (SPEC §2).
        const { backend, tools } = await setup({ '/test.txt': 'old' });
        const out = await tools.run('replace', { file_path: '/test\0.txt', instruction: 'i', old_string: 'old', new_string: 'new' });
        expect(out.code).toBe('EINVAL');
        expect(out.text).toContain('NUL byte');
        expect(await backend.readText('/test.txt')).toBe('old');
      });

      it("execute: 'should edit an existing file and return diff with fileName'", async () => {
        const out = await replaceIn('This is some old text.', { old_string: 'old', new_string: 'new' });
        expect(out.text).toBe('Successfully modified file: /t.txt (1 replacements). Here is the updated code:\nThis is some new text.');
        expect(out.after).toBe('This is some new text.');
        expect(out.changed.map((c) => c.path)).toEqual(['/t.txt']);
      });

      it("execute: 'should return error if old_string is not found in file'", async () => {
        expect(await replaceIn('Some content.', { old_string: 'nonexistent', new_string: 'replacement' })).toMatchObject({
          text: NO_MATCH,
          after: 'Some content.',
        });
      });

      it("execute: 'should preserve CRLF line endings when editing a file'; line-endings.test.ts: 'EditTool should preserve CRLF when editing a file'", async () => {
        expect((await replaceIn('line one\r\nline two\r\n', { old_string: 'line two', new_string: 'line three' })).after).toBe('line one\r\nline three\r\n');
        expect((await replaceIn('line1\r\nline2\r\nline3\r\n', { old_string: 'line2', new_string: 'modified' })).after).toBe('line1\r\nmodified\r\nline3\r\n');
      });

      it("execute: 'should create a new file with CRLF line endings if new_string has them'", async () => {
        const { backend, tools } = await setup();
        const out = await tools.run('replace', {
          file_path: '/execute_me.txt',
          instruction: 'new',
          old_string: '',
          new_string: 'new line one\r\nnew line two\r\n',
        });
        expect(out.text).toBe('Created new file: /execute_me.txt with provided content. Here is the updated code:\nnew line one\r\nnew line two\r\n');
        expect(await backend.readText('/execute_me.txt')).toBe('new line one\r\nnew line two\r\n');
      });

      it("Error Scenarios: 'should return $name error' (FILE_NOT_FOUND, ATTEMPT_TO_CREATE_EXISTING_FILE, NO_OCCURRENCE_FOUND, EXPECTED_OCCURRENCE_MISMATCH)", async () => {
        const { tools } = await setup();
        // Gemini CLI's error.message is `File not found: <path>`; the next action is its returnDisplay's.
        expect(await tools.call('replace', { file_path: '/error_test.txt', instruction: 'i', old_string: 'any', new_string: 'new' })).toBe(
          'Error: ENOENT: File not found: /error_test.txt. Use an empty old_string to create a new file.',
        );
        expect(await replaceIn('existing content', { old_string: '', new_string: 'new content' })).toMatchObject({
          text: 'Error: EEXIST: File already exists, cannot create: /t.txt',
          after: 'existing content',
        });
        expect(await replaceIn('content', { old_string: 'not-found', new_string: 'new' })).toMatchObject({ text: NO_MATCH });
        expect(await replaceIn('one one two', { old_string: 'one', new_string: 'new' })).toMatchObject({
          text: "Error: EAMBIGUOUS: Failed to edit, Expected 1 occurrence but found 2 for old_string in file: /t.txt. If you intended to replace multiple occurrences, set 'allow_multiple' to true.",
          after: 'one one two',
        });
      });

      // allow_multiple: 'should $name' (it.each).
      const MULTIPLE = [
        ['succeed when allow_multiple is true and there are multiple occurrences', 'foo foo foo', true, 'bar bar bar'],
        ['succeed when allow_multiple is true and there is exactly 1 occurrence', 'foo', true, 'bar'],
        ['fail when allow_multiple is false and there are multiple occurrences', 'foo foo foo', false, 'EAMBIGUOUS'],
        ['default to 1 expected replacement if allow_multiple not specified', 'foo foo', undefined, 'EAMBIGUOUS'],
        ['succeed when allow_multiple is false and there is exactly 1 occurrence', 'foo', false, 'bar'],
        ['fail when allow_multiple is true but there are 0 occurrences', 'baz', true, 'ENOMATCH'],
        ['fail when allow_multiple is false but there are 0 occurrences', 'baz', false, 'ENOMATCH'],
      ] as const;
      for (const [name, content, allow_multiple, expected] of MULTIPLE) {
        it(`allow_multiple: 'should ${name}'`, async () => {
          const out = await replaceIn(content, { old_string: 'foo', new_string: 'bar', ...(allow_multiple === undefined ? {} : { allow_multiple }) });
          if (expected === 'EAMBIGUOUS' || expected === 'ENOMATCH') expect(out).toMatchObject({ code: expected, after: content });
          else expect(out).toMatchObject({ isError: false, after: expected });
        });
      }

      it("multiple file edits: 'should perform multiple removals and report correct diff stats' (the files after)", async () => {
        const { backend, tools } = await setup();
        for (let i = 0; i < 10; i++) {
          const lines = Array.from({ length: 5 + (i % 6) }, (_, j) => `File ${i}, Line ${j + 1}`);
          const content = `${lines.join('\n')}\n`;
          const toRemove = `${lines.slice(1, 1 + 2 + (i % 2)).join('\n')}\n`;
          await backend.writeFile(`/test-file-${i}.txt`, content);
          const out = await tools.run('replace', {
            file_path: `/test-file-${i}.txt`,
            instruction: 'Remove lines from the file',
            old_string: toRemove,
            new_string: '',
          });
          expect(out.isError, out.text).toBe(false);
          expect(await backend.readText(`/test-file-${i}.txt`)).toBe(content.replace(toRemove, ''));
        }
      });
    });

    describe("Gemini CLI's write-file.test.ts and line-endings.test.ts (write_file)", () => {
      it("build: 'should return an invocation for a valid relative path within root'; execute: 'should write a new file with a relative path'", async () => {
        const { backend, tools } = await setup();
        expect(await tools.call('write_file', { file_path: 'execute_relative_new_file.txt', content: 'Content for relative path file.' })).toBe(
          'Successfully created and wrote to new file: /execute_relative_new_file.txt. Here is the updated code:\nContent for relative path file.',
        );
        expect(await backend.readText('/execute_relative_new_file.txt')).toBe('Content for relative path file.');
      });

      it("build: 'should throw an error if path is a directory'", async () => {
        const { backend, tools } = await setup();
        await backend.mkdir('/a_directory');
        expect(await tools.call('write_file', { file_path: '/a_directory', content: 'hello' })).toBe(
          'Error: EISDIR: Path is a directory, not a file: /a_directory',
        );
      });

      it("build: 'should throw an error if the content is null' and 'should throw error if the file_path is empty' (wording differs)", async () => {
        const { tools } = await setup();
        // Gemini CLI: 'params/content must be string'; here null is "left out" (OpenAI's strict mode sends null).
        expect(await tools.call('write_file', { file_path: '/x.txt', content: null })).toBe(
          'Error: EINVAL: missing required argument "content" for write_file (The content to write to the file.)',
        );
        // Gemini CLI: 'Missing or empty "file_path"'.
        expect(await tools.call('write_file', { file_path: '', content: '' })).toBe('Error: EINVAL: Invalid path: the path is empty. Use "/" for the root.');
      });

      it("build: 'should throw an error if content includes an omission placeholder', '… when multiline content includes omission placeholders', 'should allow content with placeholder text in a normal string literal'", async () => {
        const { backend, tools } = await setup();
        const refused = "Error: EINVAL: `content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.";
        expect(await tools.call('write_file', { file_path: '/placeholder.txt', content: '(rest of methods ...)' })).toBe(refused);
        const service = 'class Service {\n  execute() {\n    return "run";\n  }\n\n  // rest of methods ...\n}';
        expect(await tools.call('write_file', { file_path: '/service.ts', content: service })).toBe(refused);
        expect(await backend.exists('/placeholder.txt')).toBe(false);
        expect(await backend.exists('/service.ts')).toBe(false);
        expect((await tools.run('write_file', { file_path: '/valid-content.ts', content: 'const note = "(rest of methods ...)";' })).isError).toBe(false);
        expect(await backend.readText('/valid-content.ts')).toBe('const note = "(rest of methods ...)";');
      });

      it("execute: 'should overwrite an existing file …', 'should create directory if it does not exist', 'should include the file content in llmContent'", async () => {
        const { backend, tools } = await setup({ '/execute_existing_corrected_file.txt': 'Initial content for execute.' });
        expect(await tools.call('write_file', { file_path: '/execute_existing_corrected_file.txt', content: 'Proposed overwrite for execute.' })).toBe(
          'Successfully overwrote file: /execute_existing_corrected_file.txt. Here is the updated code:\nProposed overwrite for execute.',
        );
        expect(await backend.readText('/execute_existing_corrected_file.txt')).toBe('Proposed overwrite for execute.');
        const made = await tools.call('write_file', { file_path: '/new_dir_for_write/file_in_new_dir.txt', content: 'Content in new directory' });
        expect(made).toBe(
          'Successfully created and wrote to new file: /new_dir_for_write/file_in_new_dir.txt. Here is the updated code:\nContent in new directory',
        );
        expect((await backend.stat('/new_dir_for_write')).isDir).toBe(true);
      });

      it("execute: 'should return only changed lines plus context for large updates'", async () => {
        const lines = Array.from({ length: 100 }, (_, i) => `Line ${i + 1}`);
        const { tools } = await setup({ '/large_update.txt': lines.join('\n') });
        const changed = lines.map((line, i) => (i === 50 ? 'Line 51 Modified' : line));
        const out = await tools.call('write_file', { file_path: '/large_update.txt', content: changed.join('\n') });
        expect(out).toBe(`Successfully overwrote file: /large_update.txt. Here is the updated code:\n...\n${changed.slice(45, 56).join('\n')}\n...`);
      });

      it("line-endings.test.ts: 'WriteFileTool should preserve CRLF when overwriting an existing file' and 'should use OS EOL for new files' (LF here)", async () => {
        const { backend, tools } = await setup({ '/crlf_file.txt': 'line1\r\nline2\r\n' });
        await tools.run('write_file', { file_path: '/crlf_file.txt', content: 'line1\nline2\nline3\n' });
        expect(await backend.readText('/crlf_file.txt')).toBe('line1\r\nline2\r\nline3\r\n');
        // A virtual filesystem has no OS: a new file gets the lines as given (Gemini CLI on Linux and macOS).
        await tools.run('write_file', { file_path: '/new_os_eol_file.txt', content: 'line1\nline2\n' });
        expect(await backend.readText('/new_os_eol_file.txt')).toBe('line1\nline2\n');
      });
    });

    describe("Gemini CLI's read-file.test.ts (read_file)", () => {
      it("execute: 'should successfully read a file with a relative path' and 'should return success result for a text file'", async () => {
        const { tools } = await setup({ '/textfile.txt': 'This is a test file.' });
        expect(await tools.call('read_file', { file_path: 'textfile.txt' })).toBe('This is a test file.');
        expect(await tools.call('read_file', { file_path: '/textfile.txt' })).toBe('This is a test file.');
        // getDescription: 'should handle non-normalized file paths correctly'
        expect(await tools.call('read_file', { file_path: '/sub/../textfile.txt' })).toBe('This is a test file.');
      });

      it("execute: 'should return error if file does not exist' and 'should return error if path is a directory' (a next action added)", async () => {
        const { backend, tools } = await setup();
        await backend.mkdir('/directory');
        // Gemini CLI's sentence, then where to look (SPEC §3).
        expect(await tools.call('read_file', { file_path: '/nonexistent.txt' })).toBe(
          'Error: ENOENT: File not found: /nonexistent.txt. Use list_directory or glob to see what exists.',
        );
        expect(await tools.call('read_file', { file_path: '/directory' })).toBe('Error: EISDIR: Path is a directory, not a file: /directory');
      });

      it("build: 'should throw error if path is empty', 'if start_line is less than 1', 'if end_line is less than 1', 'if start_line is greater than end_line' (wording differs)", async () => {
        const { tools } = await setup({ '/test.txt': Array.from({ length: 20 }, (_, i) => `${i + 1}`).join('\n') });
        expect(await tools.call('read_file', { file_path: '' })).toBe('Error: EINVAL: Invalid path: the path is empty. Use "/" for the root.');
        expect(await tools.call('read_file', { file_path: 'test.txt', start_line: 0 })).toBe(
          'Error: EINVAL: argument "start_line" of read_file must be >= 1, got 0.',
        );
        expect(await tools.call('read_file', { file_path: 'test.txt', end_line: 0 })).toBe(
          'Error: EINVAL: argument "end_line" of read_file must be >= 1, got 0.',
        );
        expect(await tools.call('read_file', { file_path: 'test.txt', start_line: 10, end_line: 5 })).toBe(
          'Error: EINVAL: end_line 5 is before start_line 10; give an end_line of at least 10.',
        );
      });

      it("execute: 'should handle text file with lines exceeding maximum length'", async () => {
        const { tools } = await setup({ '/longlines.txt': `Short line\n${'a'.repeat(2500)}\nAnother short line` });
        const out = await tools.call('read_file', { file_path: '/longlines.txt' });
        expect(out).toContain('IMPORTANT: The file content has been truncated');
        expect(out).toContain(`--- FILE CONTENT (truncated) ---\nShort line\n${'a'.repeat(2000)}... [truncated]\nAnother short line`);
      });

      it("execute: 'should handle image file …' and 'should handle PDF file and return appropriate content' (a valid file: its bytes as a part)", async () => {
        const png = makePng(1, 1);
        const pdf = makePdf();
        const { tools } = await setup({ '/image.png': png, '/document.pdf': pdf });
        const image = await tools.run('read_file', { file_path: '/image.png' });
        expect(image.parts).toEqual([{ type: 'image', mediaType: 'image/png', data: expect.any(String) }]);
        const document = await tools.run('read_file', { file_path: '/document.pdf' });
        expect(document.parts).toEqual([{ type: 'file', mediaType: 'application/pdf', data: expect.any(String) }]);
      });

      it("execute: 'should handle image file …' and '… PDF file …' with upstream's bare headers (differs: not valid, nothing attached)", async () => {
        // Gemini CLI sends any .png or .pdf by its extension; here the bytes are checked first (SPEC §9).
        const { tools } = await setup({ '/image.png': Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), '/document.pdf': '%PDF-1.4' });
        const image = await tools.run('read_file', { file_path: '/image.png' });
        expect(image.code).toBe('EBINARY');
        expect(image.parts ?? []).toEqual([]);
        expect(image.text).toMatch(/^Error: EBINARY: \/image\.png is not a valid PNG: /);
        const document = await tools.run('read_file', { file_path: '/document.pdf' });
        expect(document.text).toMatch(/^Error: EBINARY: \/document\.pdf is not a valid PDF: /);
      });

      it("execute: 'should handle binary file and skip content', 'should handle SVG file as text', 'should handle empty file'", async () => {
        const svg = '<svg><circle cx="50" cy="50" r="40"/></svg>';
        const { tools } = await setup({ '/binary.bin': Uint8Array.of(0x00, 0xff, 0x00, 0xff), '/image.svg': svg, '/empty.txt': '' });
        expect(await tools.call('read_file', { file_path: '/binary.bin' })).toBe('Cannot display content of binary file: /binary.bin');
        expect(await tools.call('read_file', { file_path: '/image.svg' })).toBe(svg);
        expect(await tools.call('read_file', { file_path: '/empty.txt' })).toBe('');
      });

      it("execute: 'should support start_line and end_line for text files'", async () => {
        const { tools } = await setup({ '/paginated.txt': Array.from({ length: 20 }, (_, i) => `Line ${i + 1}`).join('\n') });
        expect(await tools.call('read_file', { file_path: '/paginated.txt', start_line: 6, end_line: 8 })).toBe(
          '\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 6-8 of 20 total lines.\n' +
            "Action: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call. For example, to read the next section of the file, use start_line: 9.\n\n" +
            '--- FILE CONTENT (truncated) ---\nLine 6\nLine 7\nLine 8',
        );
      });

      it("with .geminiignore: 'should throw error if path is ignored by a .geminiignore pattern', '… if file is in an ignored directory' (differs: read), 'should allow reading non-ignored files'", async () => {
        // SPEC §9: a file named outright is read even when ignored; Gemini CLI refuses it.
        const { tools } = await setup({
          '/.geminiignore': 'foo.*\nignored/',
          '/foo.bar': 'content',
          '/ignored/file.txt': 'content',
          '/allowed.txt': 'content',
        });
        expect(await tools.call('read_file', { file_path: '/foo.bar' })).toBe('content');
        expect(await tools.call('read_file', { file_path: '/ignored/file.txt' })).toBe('content');
        expect(await tools.call('read_file', { file_path: '/allowed.txt' })).toBe('content');
      });
    });

    describe("Gemini CLI's ls.test.ts (list_directory)", () => {
      it("execute: 'should list files in a directory'; parameter validation: 'should accept relative paths'", async () => {
        const { backend, tools } = await setup({ '/file1.txt': 'content1', '/src/a.ts': '' });
        await backend.mkdir('/subdir');
        expect(await tools.call('list_directory', { dir_path: '/' })).toBe('Directory listing for /:\n[DIR] src\n[DIR] subdir\nfile1.txt (8 bytes)');
        expect(await tools.call('list_directory', { dir_path: 'src' })).toBe('Directory listing for /src:\na.ts (0 bytes)');
      });

      it("execute: 'should handle empty directories'", async () => {
        const { backend, tools } = await setup();
        await backend.mkdir('/empty');
        expect(await tools.call('list_directory', { dir_path: '/empty' })).toBe('Directory /empty is empty.');
      });

      it("execute: 'should respect ignore patterns'", async () => {
        const { tools } = await setup({ '/file1.txt': 'content1', '/file2.log': 'content1' });
        expect(await tools.call('list_directory', { dir_path: '/', ignore: ['*.log'] })).toBe('Directory listing for /:\nfile1.txt (8 bytes)');
      });

      it("execute: 'should respect gitignore patterns' (differs: a .git file is listed)", async () => {
        // Gemini CLI leaves out `.git` whatever it is ("(2 ignored)"); the backend's default ignore is
        // the directory `.git/` (SPEC §9), so a `.git` file (a worktree's pointer) is listed.
        const { tools } = await setup({ '/file1.txt': 'content1', '/file2.log': 'content1', '/.git': '', '/.gitignore': '*.log' });
        expect(await tools.call('list_directory', { dir_path: '/' })).toBe(
          'Directory listing for /:\n.git (0 bytes)\n.gitignore (5 bytes)\nfile1.txt (8 bytes)\n\n(1 ignored)',
        );
        const withDir = await setup({ '/file1.txt': 'content1', '/file2.log': 'content1', '/.git/HEAD': 'ref: refs/heads/main\n', '/.gitignore': '*.log' });
        expect(await withDir.tools.call('list_directory', { dir_path: '/' })).toBe(
          'Directory listing for /:\n.gitignore (5 bytes)\nfile1.txt (8 bytes)\n\n(2 ignored)',
        );
      });

      it("execute: 'should respect geminiignore patterns'", async () => {
        const { tools } = await setup({ '/file1.txt': 'content1', '/file2.log': 'content1', '/.geminiignore': '*.log' });
        expect(await tools.call('list_directory', { dir_path: '/' })).toBe(
          'Directory listing for /:\n.geminiignore (5 bytes)\nfile1.txt (8 bytes)\n\n(1 ignored)',
        );
      });

      it("execute: 'should handle non-directory paths' and 'should handle non-existent paths' (wording differs)", async () => {
        const { tools } = await setup({ '/file1.txt': 'content1' });
        expect(await tools.call('list_directory', { dir_path: '/file1.txt' })).toBe('Error: ENOTDIR: Path is not a directory: /file1.txt');
        // Gemini CLI: `Error listing directory: ENOENT: no such file or directory, stat '…'`.
        expect(await tools.call('list_directory', { dir_path: '/does-not-exist' })).toBe(
          'Error: ENOENT: Directory not found or inaccessible: /does-not-exist. Use list_directory or glob to see what exists.',
        );
      });

      it("execute: 'should sort directories first, then files alphabetically'", async () => {
        const { backend, tools } = await setup({ '/b-file.txt': 'content1', '/a-file.txt': 'content1' });
        await backend.mkdir('/y-dir');
        await backend.mkdir('/x-dir');
        expect(await tools.call('list_directory', { dir_path: '/' })).toBe(
          'Directory listing for /:\n[DIR] x-dir\n[DIR] y-dir\na-file.txt (8 bytes)\nb-file.txt (8 bytes)',
        );
      });
    });

    describe("Gemini CLI's glob.test.ts (glob)", () => {
      // The upstream tree, written in this order a second apart (older.sortme before newer.sortme).
      const TREE: Record<string, string> = {
        '/.git': '',
        '/fileA.txt': 'contentA',
        '/FileB.TXT': 'contentB',
        '/sub/fileC.md': 'contentC',
        '/sub/FileD.MD': 'contentD',
        '/sub/deep/fileE.log': 'contentE',
        '/older.sortme': 'older_content',
        '/newer.sortme': 'newer_content',
      };
      async function tree(extra: Record<string, string> = {}) {
        const clock = manualClock();
        const { backend, tools } = await setup({}, { now: clock.now });
        for (const [path, content] of Object.entries({ ...TREE, ...extra })) {
          clock.tick(1000);
          await backend.writeFile(path, content);
        }
        return { backend, tools, clock };
      }
      const found = (text: string) => text.split('\n').slice(1).sort();

      it("execute: 'should find files matching a simple pattern in the root', '… case-sensitively when case_sensitive is true', '… case-insensitively by default (pattern: *.TXT)', '… when case_sensitive is false'", async () => {
        const { tools } = await tree();
        expect(await tools.call('glob', { pattern: '*.txt' })).toBe(
          'Found 2 file(s) matching "*.txt" within /, sorted by modification time (newest first):\n/FileB.TXT\n/fileA.txt',
        );
        expect(await tools.call('glob', { pattern: '*.txt', case_sensitive: true })).toBe(
          'Found 1 file(s) matching "*.txt" within /, sorted by modification time (newest first):\n/fileA.txt',
        );
        expect(found(await tools.call('glob', { pattern: '*.TXT' }))).toEqual(['/FileB.TXT', '/fileA.txt']);
        expect(found(await tools.call('glob', { pattern: '*.TXT', case_sensitive: false }))).toEqual(['/FileB.TXT', '/fileA.txt']);
      });

      it("execute: 'should find files using a pattern that includes a subdirectory', '… in a specified relative path', '… a deep globstar pattern'", async () => {
        const { tools } = await tree();
        expect(found(await tools.call('glob', { pattern: 'sub/*.md' }))).toEqual(['/sub/FileD.MD', '/sub/fileC.md']);
        const relative = await tools.call('glob', { pattern: '*.md', dir_path: 'sub' });
        expect(relative).toMatch(/^Found 2 file\(s\) matching "\*\.md" within \/sub, sorted/);
        expect(found(relative)).toEqual(['/sub/FileD.MD', '/sub/fileC.md']);
        expect(await tools.call('glob', { pattern: '**/*.log' })).toBe(
          'Found 1 file(s) matching "**/*.log" within /, sorted by modification time (newest first):\n/sub/deep/fileE.log',
        );
      });

      it('execute: \'should return "No files found" message when pattern matches nothing\'', async () => {
        const { tools } = await tree();
        expect(await tools.call('glob', { pattern: '*.nonexistent' })).toBe('No files found matching pattern "*.nonexistent" within /');
      });

      it("execute: 'should find files with special characters in the name' and '… like [] and () in the path'", async () => {
        const path = '/src/app/[test]/(dashboard)/testing/components/code.tsx';
        // (With file1.txt beside it too: Gemini CLI escapes a pattern that names an existing file.)
        const { tools } = await tree({ '/file[1].txt': 'content', '/file1.txt': 'content', [path]: 'content' });
        expect(await tools.call('glob', { pattern: 'file[1].txt' })).toBe(
          'Found 1 file(s) matching "file[1].txt" within /, sorted by modification time (newest first):\n/file[1].txt',
        );
        expect(await tools.call('glob', { pattern: path.slice(1) })).toBe(
          `Found 1 file(s) matching "${path.slice(1)}" within /, sorted by modification time (newest first):\n${path}`,
        );
      });

      it("execute: 'should correctly sort files by modification time (newest first)'; sortFileEntries: 'should sort only older files alphabetically' (differs: newest first)", async () => {
        const { tools } = await tree();
        expect(found(await tools.call('glob', { pattern: '*.sortme' }))).toEqual(['/newer.sortme', '/older.sortme']);
        expect(await tools.call('glob', { pattern: '*.sortme' })).toMatch(/\n\/newer\.sortme\n\/older\.sortme$/);
        // Gemini CLI lists files older than a day by name (older-a.txt first); here every file is by time, newest first.
        const { tools: old } = await tree({ '/older-a.txt': 'a', '/older-b.txt': 'b' });
        expect(await old.call('glob', { pattern: 'older-*.txt' })).toMatch(/\n\/older-b\.txt\n\/older-a\.txt$/);
      });

      it("validateToolParams: 'should return error if pattern is missing', '… an empty string', '… only whitespace', 'if dir_path is not a string', 'if case_sensitive is not a boolean'", async () => {
        const { tools } = await tree();
        expect(await tools.call('glob', {})).toMatch(/^Error: EINVAL: missing required argument "pattern" for glob /);
        expect(await tools.call('glob', { pattern: '' })).toBe('Error: EINVAL: The glob pattern is empty. Use "**/*" to match every file.');
        expect(await tools.call('glob', { pattern: '   ' })).toBe('Error: EINVAL: The glob pattern is empty. Use "**/*" to match every file.');
        expect(await tools.call('glob', { pattern: '*', dir_path: 123 })).toBe('Error: EINVAL: argument "dir_path" of glob must be a string, got 123.');
        expect(await tools.call('glob', { pattern: '*', case_sensitive: 'true' })).toBe(
          'Error: EINVAL: argument "case_sensitive" of glob must be true or false, got "true".',
        );
      });

      it("validateToolParams: 'should return error if specified search path does not exist' and '… is not a directory' (wording differs)", async () => {
        const { tools } = await tree({ '/not-a-dir': 'content' });
        // Gemini CLI: 'Search path does not exist …', 'Search path is not a directory …'.
        expect(await tools.call('glob', { pattern: '*', dir_path: 'non-existent' })).toBe(
          'Error: ENOENT: No such file or directory: /non-existent. Use list_directory or glob to see what exists.',
        );
        expect(await tools.call('glob', { pattern: '*', dir_path: 'not-a-dir' })).toBe(
          'Error: ENOTDIR: /not-a-dir is a file, not a directory. Use read_file to read it.',
        );
      });

      it("ignore file handling: 'should respect .gitignore files by default', '.geminiignore files by default', 'should not respect .gitignore when respect_git_ignore is false', '… .geminiignore when respect_gemini_ignore is false'", async () => {
        const { tools } = await tree({
          '/.gitignore': 'ignored_test.txt',
          '/.geminiignore': 'gemini-ignored_test.txt',
          '/ignored_test.txt': 'content',
          '/gemini-ignored_test.txt': 'content',
          '/visible_test.txt': 'content',
        });
        expect(await tools.call('glob', { pattern: '*_test.txt' })).toBe(
          'Found 1 file(s) matching "*_test.txt" within / (2 additional files were ignored), sorted by modification time (newest first):\n/visible_test.txt',
        );
        expect(await tools.call('glob', { pattern: 'ignored_test.txt', respect_git_ignore: false })).toBe(
          'Found 1 file(s) matching "ignored_test.txt" within /, sorted by modification time (newest first):\n/ignored_test.txt',
        );
        expect(await tools.call('glob', { pattern: 'gemini-ignored_test.txt', respect_gemini_ignore: false })).toBe(
          'Found 1 file(s) matching "gemini-ignored_test.txt" within /, sorted by modification time (newest first):\n/gemini-ignored_test.txt',
        );
      });
    });

    describe("Gemini CLI's grep.test.ts and ripGrep.test.ts (grep_search)", () => {
      // The upstream tree. ripGrep.test.ts feeds mocked ripgrep output for it; grep.test.ts (the
      // JavaScript fallback) searches it: both expect the matches below.
      const TREE = {
        '/fileA.txt': 'hello world\nsecond line with world',
        '/fileB.js': 'const foo = "bar";\nfunction baz() { return "hello"; }',
        '/sub/fileC.txt': 'another world in sub dir',
        '/sub/fileD.md': '# Markdown file\nThis is a test.',
      };
      const grep = async (args: object, extra: Record<string, string> = {}) => (await setup({ ...TREE, ...extra })).tools.call('grep_search', args);

      it("execute: 'should find matches for a simple pattern in all files' (paths absolute: docs/dialects.md)", async () => {
        expect(await grep({ pattern: 'world' })).toBe(
          'Found 3 matches for pattern "world" in the workspace directory:\n---\nFile: /fileA.txt\nL1: hello world\nL2: second line with world\n---\nFile: /sub/fileC.txt\nL1: another world in sub dir\n---',
        );
      });

      it('grep.test.ts execute: \'should include files that start with ".." in JS fallback\'', async () => {
        expect(await grep({ pattern: 'world' }, { '/..env': 'world in ..env' })).toBe(
          'Found 4 matches for pattern "world" in the workspace directory:\n---\nFile: /..env\nL1: world in ..env\n---\nFile: /fileA.txt\nL1: hello world\nL2: second line with world\n---\nFile: /sub/fileC.txt\nL1: another world in sub dir\n---',
        );
      });

      it("execute: 'should find matches in a specific path', '… with an include glob', '… with an include glob and path'", async () => {
        expect(await grep({ pattern: 'world', dir_path: 'sub' })).toBe(
          'Found 1 match for pattern "world" in path "/sub":\n---\nFile: /sub/fileC.txt\nL1: another world in sub dir\n---',
        );
        expect(await grep({ pattern: 'hello', include_pattern: '*.js' })).toBe(
          'Found 1 match for pattern "hello" in the workspace directory (filter: "*.js"):\n---\nFile: /fileB.js\nL2: function baz() { return "hello"; }\n---',
        );
        expect(await grep({ pattern: 'hello', dir_path: 'sub', include_pattern: '*.js' }, { '/sub/another.js': 'const greeting = "hello";' })).toBe(
          'Found 1 match for pattern "hello" in path "/sub" (filter: "*.js"):\n---\nFile: /sub/another.js\nL1: const greeting = "hello";\n---',
        );
      });

      it("execute: 'should return \"No matches found\" when pattern does not exist'; edge cases: 'should handle empty directories gracefully', '… empty files …'", async () => {
        expect(await grep({ pattern: 'nonexistentpattern' })).toBe('No matches found for pattern "nonexistentpattern" in the workspace directory.');
        const { backend, tools } = await setup({ ...TREE, '/empty.txt': '' });
        await backend.mkdir('/empty');
        expect(await tools.call('grep_search', { pattern: 'test', dir_path: 'empty' })).toBe('No matches found for pattern "test" in path "/empty".');
        expect(await tools.call('grep_search', { pattern: 'anything' })).toBe('No matches found for pattern "anything" in the workspace directory.');
      });

      it("execute: 'should handle regex special characters correctly' and 'should be case-insensitive by default'", async () => {
        expect(await grep({ pattern: 'foo.*bar' })).toBe(
          'Found 1 match for pattern "foo.*bar" in the workspace directory:\n---\nFile: /fileB.js\nL1: const foo = "bar";\n---',
        );
        expect(await grep({ pattern: 'HELLO' })).toBe(
          'Found 2 matches for pattern "HELLO" in the workspace directory:\n---\nFile: /fileA.txt\nL1: hello world\n---\nFile: /fileB.js\nL2: function baz() { return "hello"; }\n---',
        );
      });

      it("validateToolParams: 'should return error if pattern is missing', 'for invalid regex pattern', 'should allow invalid regex patterns when fixed_strings is true' (wording differs)", async () => {
        expect(await grep({ dir_path: '.' })).toMatch(/^Error: EINVAL: missing required argument "pattern" for grep_search /);
        // Gemini CLI: 'Invalid regular expression pattern provided: [[. Error: …'.
        expect(await grep({ pattern: '[[' })).toMatch(/^Error: EREGEX: Invalid regex "\[\[": /);
        expect(await grep({ pattern: '[[', fixed_strings: true }, { '/b.txt': 'a [[ b' })).toBe(
          'Found 1 match for pattern "[[" in the workspace directory:\n---\nFile: /b.txt\nL1: a [[ b\n---',
        );
      });

      it("validateToolParams: 'should return error if path does not exist' (wording differs); ripGrep: 'should allow path to be a file'", async () => {
        // Gemini CLI: 'Path does not exist: <path>'.
        expect(await grep({ pattern: 'hello', dir_path: 'nonexistent' })).toBe(
          'Error: ENOENT: No such file or directory: /nonexistent. Use list_directory or glob to see what exists.',
        );
        // (grep.test.ts's JavaScript fallback refuses a file: 'Path is not a directory'; ripgrep, the default, searches it.)
        expect(await grep({ pattern: 'hello', dir_path: '/fileA.txt' })).toBe(
          'Found 1 match for pattern "hello" in path "/fileA.txt":\n---\nFile: /fileA.txt\nL1: hello world\n---',
        );
      });

      it("'should respect total_max_matches and truncate results' and 'should respect max_matches_per_file in JS fallback'", async () => {
        expect(await grep({ pattern: 'world', total_max_matches: 2 })).toBe(
          'Found 2 matches for pattern "world" in the workspace directory (results limited to 2 matches for performance):\n---\nFile: /fileA.txt\nL1: hello world\nL2: second line with world\n---',
        );
        expect(await grep({ pattern: 'world', max_matches_per_file: 1 })).toBe(
          'Found 2 matches for pattern "world" in the workspace directory:\n---\nFile: /fileA.txt\nL1: hello world\n---\nFile: /sub/fileC.txt\nL1: another world in sub dir\n---',
        );
      });

      it("'should return only file paths when names_only is true' and 'should filter out matches based on exclude_pattern'", async () => {
        expect(await grep({ pattern: 'world', names_only: true })).toBe(
          'Found 2 files with matches for pattern "world" in the workspace directory:\n/fileA.txt\n/sub/fileC.txt',
        );
        expect(
          await grep(
            { pattern: 'Copyright .* Google LLC', exclude_pattern: '2026', dir_path: '.' },
            { '/copyright.txt': 'Copyright 2025 Google LLC\nCopyright 2026 Google LLC' },
          ),
        ).toBe('Found 1 match for pattern "Copyright .* Google LLC" in path "/":\n---\nFile: /copyright.txt\nL1: Copyright 2025 Google LLC\n---');
      });

      it("'should include context when matches are <= 3' (differs: no automatic context)", async () => {
        const lines = Array.from({ length: 100 }, (_, i) => (i === 50 ? 'Target match' : `Line ${i + 1}`));
        // Gemini CLI adds 50 lines either side of a single match (L1- … L100-); here only what context/before/after ask for.
        expect(await grep({ pattern: 'Target match' }, { '/context.txt': lines.join('\n') })).toBe(
          'Found 1 match for pattern "Target match" in the workspace directory:\n---\nFile: /context.txt\nL51: Target match\n---',
        );
      });

      it("'should truncate excessively long lines'", async () => {
        const longString = 'a'.repeat(3000);
        const out = await grep({ pattern: 'Target match' }, { '/longline.txt': `Target match ${longString}` });
        expect(out).toBe(
          `Found 1 match for pattern "Target match" in the workspace directory:\n---\nFile: /longline.txt\nL1: Target match ${'a'.repeat(1987)}... [truncated]\n---`,
        );
      });

      it("ripGrep: 'should filter out files based on FileDiscoveryService even if ripgrep returns them' (.geminiignore)", async () => {
        const { tools } = await setup({ '/.geminiignore': 'ignored.txt', '/ignored.txt': 'should be ignored', '/allowed.txt': 'should be kept' });
        expect(await tools.call('grep_search', { pattern: 'should' })).toBe(
          'Found 1 match for pattern "should" in the workspace directory:\n---\nFile: /allowed.txt\nL1: should be kept\n---',
        );
      });

      it("ripGrep edge cases: 'should handle special characters in file names' and 'should handle deeply nested directories'", async () => {
        expect(await grep({ pattern: 'special' }, { '/file with spaces & symbols!.txt': 'hello world with special chars' })).toBe(
          'Found 1 match for pattern "special" in the workspace directory:\n---\nFile: /file with spaces & symbols!.txt\nL1: hello world with special chars\n---',
        );
        expect(await grep({ pattern: 'deep' }, { '/a/b/c/d/e/deep.txt': 'content in deep directory' })).toBe(
          'Found 1 match for pattern "deep" in the workspace directory:\n---\nFile: /a/b/c/d/e/deep.txt\nL1: content in deep directory\n---',
        );
      });

      it("ripGrep regex pattern validation: 'should handle complex regex patterns', '… case sensitivity correctly', 'should handle escaped regex special characters'", async () => {
        expect(
          await grep(
            { pattern: 'function\\s+\\w+\\s*\\(', context: 0, include_pattern: 'code.js' },
            { '/code.js': 'function getName() { return "test"; }\nconst getValue = () => "value";' },
          ),
        ).toBe(
          'Found 1 match for pattern "function\\s+\\w+\\s*\\(" in the workspace directory (filter: "code.js"):\n---\nFile: /code.js\nL1: function getName() { return "test"; }\n---',
        );
        expect(await grep({ pattern: 'hello', include_pattern: 'case.txt' }, { '/case.txt': 'Hello World\nhello world\nHELLO WORLD' })).toBe(
          'Found 3 matches for pattern "hello" in the workspace directory (filter: "case.txt"):\n---\nFile: /case.txt\nL1: Hello World\nL2: hello world\nL3: HELLO WORLD\n---',
        );
        expect(await grep({ pattern: '\\$\\d+\\.\\d+', context: 0 }, { '/special.txt': 'Price: $19.99\nRegex: [a-z]+ pattern\nEmail: test@example.com' })).toBe(
          'Found 1 match for pattern "\\$\\d+\\.\\d+" in the workspace directory:\n---\nFile: /special.txt\nL1: Price: $19.99\n---',
        );
      });

      it("ripGrep include pattern filtering: 'should handle multiple file extensions in include pattern' and 'should handle directory patterns in include'", async () => {
        const { tools } = await setup({
          '/test.ts': 'typescript content',
          '/test.tsx': 'tsx content',
          '/test.js': 'javascript content',
          '/test.txt': 'text content',
          '/src/main.ts': 'source code',
          '/other.ts': 'other code',
        });
        expect(await tools.call('grep_search', { pattern: 'content', include_pattern: '*.{ts,tsx}', names_only: true })).toBe(
          'Found 2 files with matches for pattern "content" in the workspace directory (filter: "*.{ts,tsx}"):\n/test.ts\n/test.tsx',
        );
        expect(await tools.call('grep_search', { pattern: 'code', include_pattern: 'src/**', names_only: true })).toBe(
          'Found 1 files with matches for pattern "code" in the workspace directory (filter: "src/**"):\n/src/main.ts',
        );
      });

      it("ripGrep advanced search options: 'should handle case_sensitive parameter', 'should handle fixed_strings parameter', 'should handle no_ignore parameter', 'should handle context parameters'", async () => {
        const { tools } = await setup({
          '/fileA.txt': 'hello world\nHELLO world\nhello.world\nhelloXworld',
          '/ctx.txt': 'hello there\nsecond line with world\nthird line\nfourth line',
          '/.gitignore': '*.log',
          '/ignored.log': 'secret log entry',
        });
        expect(await tools.call('grep_search', { pattern: 'HELLO', include_pattern: 'fileA.txt', context: 0 })).toMatch(/^Found 4 matches for pattern "HELLO"/);
        expect(await tools.call('grep_search', { pattern: 'HELLO', case_sensitive: true, context: 0 })).toBe(
          'Found 1 match for pattern "HELLO" in the workspace directory:\n---\nFile: /fileA.txt\nL2: HELLO world\n---',
        );
        expect(await tools.call('grep_search', { pattern: 'hello.world', fixed_strings: true })).toBe(
          'Found 1 match for pattern "hello.world" in the workspace directory:\n---\nFile: /fileA.txt\nL3: hello.world\n---',
        );
        expect(await tools.call('grep_search', { pattern: 'secret' })).toBe('No matches found for pattern "secret" in the workspace directory.');
        expect(await tools.call('grep_search', { pattern: 'secret', no_ignore: true })).toBe(
          'Found 1 match for pattern "secret" in the workspace directory:\n---\nFile: /ignored.log\nL1: secret log entry\n---',
        );
        // context: 1, after: 2, before: 1 (after and before win over context, as ripgrep's later flags do).
        expect(await tools.call('grep_search', { pattern: 'second', context: 1, after: 2, before: 1 })).toBe(
          'Found 1 match for pattern "second" in the workspace directory:\n---\nFile: /ctx.txt\nL1- hello there\nL2: second line with world\nL3- third line\nL4- fourth line\n---',
        );
      });
    });

    describe("Gemini CLI's read-many-files.test.ts (read_many_files)", () => {
      // Upstream's root holds a .geminiignore of `foo.*` in every case.
      const read = async (args: object, files: Record<string, string | Uint8Array> = {}) =>
        (await setup({ '/.geminiignore': 'foo.*', ...files })).tools.run('read_many_files', args);
      const END = '\n--- End of content ---';

      it("build: 'should throw error if paths array is empty' and 'Error handling: should return an INVALID_TOOL_PARAMS error if no paths are provided'", async () => {
        expect((await read({ include: [] })).text).toBe(
          'Error: EINVAL: argument "include" of read_many_files must name at least one path or glob pattern, got [].',
        );
      });

      it("build: 'should throw error if paths array contains an empty string', '… include array contains non-string elements', '… exclude array contains non-string elements' (wording differs)", async () => {
        expect((await read({ include: ['file1.txt', ''] }, { '/file1.txt': 'x' })).text).toBe(
          'Error: EINVAL: The glob pattern is empty. Use "**/*" to match every file.',
        );
        expect((await read({ include: ['*.ts', 123] })).text).toBe(
          'Error: EINVAL: argument "include" of read_many_files must be an array of strings, got ["*.ts",123].',
        );
        expect((await read({ include: ['file1.txt'], exclude: ['*.log', {}] })).text).toBe(
          'Error: EINVAL: argument "exclude" of read_many_files must be an array of strings, got ["*.log",{}].',
        );
      });

      it("execute: 'should read a single specified file' and 'should read multiple specified files'", async () => {
        expect((await read({ include: ['file1.txt'] }, { '/file1.txt': 'Content of file1' })).text).toBe(`--- /file1.txt ---\n\nContent of file1\n\n${END}`);
        expect((await read({ include: ['file1.txt', 'subdir/file2.js'] }, { '/file1.txt': 'Content1', '/subdir/file2.js': 'Content2' })).text).toBe(
          `--- /file1.txt ---\n\nContent1\n\n--- /subdir/file2.js ---\n\nContent2\n\n${END}`,
        );
      });

      it("execute: 'should handle glob patterns' and 'should respect exclude patterns'", async () => {
        expect((await read({ include: ['*.txt'] }, { '/file.txt': 'Text file', '/another.txt': 'Another text', '/sub/data.json': '{}' })).text).toBe(
          `--- /another.txt ---\n\nAnother text\n\n--- /file.txt ---\n\nText file\n\n${END}`,
        );
        expect(
          (await read({ include: ['src/**/*.ts'], exclude: ['**/*.test.ts'] }, { '/src/main.ts': 'Main content', '/src/main.test.ts': 'Test content' })).text,
        ).toBe(`--- /src/main.ts ---\n\nMain content\n\n${END}`);
      });

      it("execute: 'should handle nonexistent specific files gracefully'", async () => {
        expect((await read({ include: ['nonexistent-file.txt'] })).text).toBe('No files matching the criteria were found or all were skipped.');
      });

      it("execute: 'should use default excludes' and 'should NOT use default excludes if useDefaultExcludes is false'", async () => {
        expect((await read({ include: ['**/*.js'] }, { '/node_modules/some-lib/index.js': 'lib code', '/src/app.js': 'app code' })).text).toBe(
          `--- /src/app.js ---\n\napp code\n\n${END}`,
        );
        expect(
          (await read({ include: ['**/*.js'], useDefaultExcludes: false }, { '/dist/some-lib/index.js': 'lib code', '/src/app.js': 'app code' })).text,
        ).toBe(`--- /dist/some-lib/index.js ---\n\nlib code\n\n--- /src/app.js ---\n\napp code\n\n${END}`);
      });

      it("execute: 'should include images … if explicitly requested by extension / by name', 'should include PDF files …' (differs: skipped), 'should skip PDF files if not explicitly requested'", async () => {
        // read_many_files returns text only (docs/dialects.md): images and PDFs are left out, named or not.
        const files = {
          '/image.png': makePng(1, 1),
          '/report-final.pdf': makePdf(),
          '/header.png': Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
          '/notes.txt': 'text notes',
        };
        for (const include of [['*.png'], ['image.png'], ['header.png'], ['*.pdf'], ['report-final.pdf']]) {
          expect((await read({ include }, files)).text, include[0]).toBe('No files matching the criteria were found or all were skipped.');
        }
        expect((await read({ include: ['*'] }, files)).text).toBe(`--- /.geminiignore ---\n\nfoo.*\n\n--- /notes.txt ---\n\ntext notes\n\n${END}`);
      });

      it("execute: 'should return error if path is ignored by a .geminiignore pattern' (differs: files named outright are read)", async () => {
        const files = { '/foo.bar': 'a', '/bar.ts': 'b', '/foo.quux': 'c' };
        expect((await read({ include: ['foo.bar', 'bar.ts', 'foo.quux'] }, files)).text).toBe(
          `--- /bar.ts ---\n\nb\n\n--- /foo.bar ---\n\na\n\n--- /foo.quux ---\n\nc\n\n${END}`,
        );
        // A pattern leaves them out, as Gemini CLI does.
        expect((await read({ include: ['*.*'] }, files)).text).toBe(`--- /.geminiignore ---\n\nfoo.*\n\n--- /bar.ts ---\n\nb\n\n${END}`);
      });

      it("execute: 'should add a warning for truncated files'", async () => {
        const long = Array.from({ length: 2500 }, (_, i) => `L${i}`).join('\n');
        const text = (await read({ include: ['*.txt'] }, { '/file1.txt': 'Content1', '/large-file.txt': long })).text;
        const warning = "[WARNING: This file was truncated. To view the full content, use the 'read_file' tool on this specific file.]";
        expect(text.startsWith(`--- /file1.txt ---\n\nContent1\n\n--- /large-file.txt ---\n\n${warning}\n\nL0\n`)).toBe(true);
        expect(text).toContain('\nL1999\n\n\n--- End of content ---');
        expect(text).not.toContain('L2000');
      });

      it("execute: 'should read files with special characters like [] and () in the path' and '… in the name'", async () => {
        const path = '/src/app/[test]/(dashboard)/testing/components/code.tsx';
        expect((await read({ include: [path.slice(1)] }, { [path]: 'Content of receive-detail' })).text).toBe(
          `--- ${path} ---\n\nContent of receive-detail\n\n${END}`,
        );
        expect((await read({ include: ['file[1].txt'] }, { '/file[1].txt': 'Content of file[1]', '/file1.txt': 'other' })).text).toBe(
          `--- /file[1].txt ---\n\nContent of file[1]\n\n${END}`,
        );
      });

      it("Batch Processing: 'should handle batch processing errors gracefully' and 'should process files in parallel' (all read)", async () => {
        const files = { '/valid1.txt': 'Valid content 1', '/valid2.txt': 'Valid content 2', '/valid3.txt': 'Valid content 3' };
        expect((await read({ include: ['valid1.txt', 'valid2.txt', 'nonexistent-file.txt', 'valid3.txt'] }, files)).text).toBe(
          `--- /valid1.txt ---\n\nValid content 1\n\n--- /valid2.txt ---\n\nValid content 2\n\n--- /valid3.txt ---\n\nValid content 3\n\n${END}`,
        );
      });
    });
  });
}
