/**
 * deepagents' own StateBackend tests (deepagentsjs repository, libs/deepagents/src/backends/
 * state.test.ts, deepagents 1.13–1.14), run against AgentvfsBackend: the same cases in the same
 * order, with the same assertions. Only the setup differs: AgentvfsBackend stores every change
 * at once, so where a case merged `filesUpdate` into LangGraph state by hand, here nothing is
 * merged, and every method is awaited. Cases about LangGraph state plumbing (the Pregel send
 * channel, the legacy `filesUpdate` contract, the v1 file format) assert what AgentvfsBackend
 * does instead, or are listed in docs/langchain.md as not applying; each is marked here.
 */
import { ToolMessage } from '@langchain/core/messages';
import { createFilesystemMiddleware } from 'deepagents';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentvfsBackend } from '../../src/langchain/index.ts';
import { closeAll, TARGETS } from './targets.ts';

afterEach(closeAll);

const PNG_SIGNATURE = () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe.each(Object.keys(TARGETS))('StateBackend cases, AgentvfsBackend with the backend %s', (where) => {
  const make = (files?: Record<string, string | Uint8Array>) => {
    const store = TARGETS[where]!(files ? { files } : {});
    return { store, backend: new AgentvfsBackend(store) };
  };

  it('should write, read, edit, ls, grep, and glob', async () => {
    const { backend } = make();

    const writeRes = await backend.write('/notes.txt', 'hello world');
    expect(writeRes).toBeDefined();
    expect(writeRes.error).toBeUndefined();
    // deepagents: a filesUpdate to merge; here null, which is defined too (nothing to merge).
    expect(writeRes.filesUpdate).toBeDefined();

    const readRes = await backend.read('/notes.txt');
    expect(readRes.error).toBeUndefined();
    expect(readRes.content).toContain('hello world');

    const editRes = await backend.edit('/notes.txt', 'hello', 'hi', false);
    expect(editRes).toBeDefined();
    expect(editRes.error).toBeUndefined();
    expect(editRes.filesUpdate).toBeDefined();

    const readRes2 = await backend.read('/notes.txt');
    expect(readRes2.error).toBeUndefined();
    expect(readRes2.content).toContain('hi world');

    const listing = await backend.ls('/');
    expect(listing.error).toBeUndefined();
    expect(listing.files!.some((fi) => fi.path === '/notes.txt')).toBe(true);

    const grepRes = await backend.grep('hi', '/');
    expect(grepRes.error).toBeUndefined();
    expect(grepRes.matches).toBeDefined();
    expect(grepRes.matches!.some((m) => m.path === '/notes.txt')).toBe(true);

    // Special characters like "[" are treated literally (not regex)
    const literalResult = await backend.grep('[', '/');
    expect(literalResult.error).toBeUndefined();
    expect(literalResult.matches).toBeDefined();

    const infos = await backend.glob('*.txt', '/');
    expect(infos.error).toBeUndefined();
    expect(infos.files!.some((i) => i.path === '/notes.txt')).toBe(true);
  });

  it('should delete files through Pregel send in zero-arg mode (adapted: no Pregel send, the file is gone at once)', async () => {
    const { backend } = make();

    const writeRes = await backend.write('/drop.txt', 'bye');
    expect(writeRes.error).toBeUndefined();
    expect((await backend.read('/drop.txt')).error).toBeUndefined();

    const deleteRes = await backend.delete('/drop.txt');
    expect(deleteRes.error).toBeUndefined();
    expect(deleteRes.path).toBe('/drop.txt');

    expect((await backend.read('/drop.txt')).error).toContain('not found');
  });

  it('should return an error when deleting a missing file', async () => {
    const { backend } = make();

    const result = await backend.delete('/missing.txt');

    expect(result.path).toBeUndefined();
    expect(result.error).toContain('not found');
  });

  it('should delete a directory recursively while preserving siblings (adapted: no Pregel send to inspect)', async () => {
    const { backend } = make();

    await backend.write('/work/a.txt', 'a');
    await backend.write('/work/sub/b.txt', 'b');
    await backend.write('/keep.txt', 'keep');

    const result = await backend.delete('/work');

    expect(result.error).toBeUndefined();
    expect(result.path).toBe('/work');

    expect((await backend.read('/work/a.txt')).error).toContain('not found');
    expect((await backend.read('/work/sub/b.txt')).error).toContain('not found');
    expect((await backend.read('/keep.txt')).error).toBeUndefined();
  });

  it('should return a deletion update in legacy mode (differs: no update to apply, filesUpdate is null and the file is gone)', async () => {
    const { backend } = make();
    await backend.write('/drop.txt', 'bye');

    const result = await backend.delete('/drop.txt');

    expect(result.path).toBe('/drop.txt');
    expect(result.error).toBeUndefined();
    expect(result.filesUpdate).toBeNull();
    expect((await backend.read('/drop.txt')).error).toContain('not found');
  });

  it('should handle errors correctly', async () => {
    const { backend } = make();

    const editErr = await backend.edit('/missing.txt', 'a', 'b');
    expect(editErr.error).toBeDefined();
    expect(editErr.error).toContain('not found');

    const writeRes = await backend.write('/dup.txt', 'x');
    expect(writeRes.filesUpdate).toBeDefined();

    const overwriteRes = await backend.write('/dup.txt', 'y');
    expect(overwriteRes.error).toBeUndefined();
    expect(overwriteRes.filesUpdate).toBeDefined();

    const readRes = await backend.read('/dup.txt');
    expect(readRes.content).toBe('y');
  });

  // "should honor v1 format for binary-path writes": does not apply (one storage format, no fileFormat option).

  it('should overwrite existing binary files with decoded bytes (differs: created_at is the last write, agentvfs keeps no creation time)', async () => {
    const oldBytes = new Uint8Array([1, 2, 3]);
    const newBytes = new Uint8Array([4, 5, 6]);
    const { backend } = make({ '/image.png': oldBytes });

    const result = await backend.write('/image.png', Buffer.from(newBytes).toString('base64'));

    expect(result.error).toBeUndefined();
    const raw = await backend.readRaw('/image.png');
    expect(raw.data).toBeDefined();
    expect(raw.data!.content).toEqual(newBytes);
    expect(raw.data!.created_at).toBe(raw.data!.modified_at);
  });

  it('should list nested directories correctly', async () => {
    const { backend } = make();

    const files: Record<string, string> = {
      '/src/main.py': 'main code',
      '/src/utils/helper.py': 'helper code',
      '/src/utils/common.py': 'common code',
      '/docs/readme.md': 'readme',
      '/docs/api/reference.md': 'api reference',
      '/config.json': 'config',
    };

    for (const [path, content] of Object.entries(files)) {
      const res = await backend.write(path, content);
      expect(res.error).toBeUndefined();
    }

    const rootListing = await backend.ls('/');
    expect(rootListing.error).toBeUndefined();
    const rootPaths = rootListing.files!.map((fi) => fi.path);
    expect(rootPaths).toContain('/config.json');
    expect(rootPaths).toContain('/src/');
    expect(rootPaths).toContain('/docs/');
    expect(rootPaths).not.toContain('/src/main.py');
    expect(rootPaths).not.toContain('/src/utils/helper.py');

    const srcListing = await backend.ls('/src/');
    expect(srcListing.error).toBeUndefined();
    const srcPaths = srcListing.files!.map((fi) => fi.path);
    expect(srcPaths).toContain('/src/main.py');
    expect(srcPaths).toContain('/src/utils/');
    expect(srcPaths).not.toContain('/src/utils/helper.py');

    const utilsListing = await backend.ls('/src/utils/');
    expect(utilsListing.error).toBeUndefined();
    const utilsPaths = utilsListing.files!.map((fi) => fi.path);
    expect(utilsPaths).toContain('/src/utils/helper.py');
    expect(utilsPaths).toContain('/src/utils/common.py');
    expect(utilsPaths).toHaveLength(2);

    const emptyListing = await backend.ls('/nonexistent/');
    expect(emptyListing.error).toBeUndefined();
    expect(emptyListing.files).toEqual([]);
  });

  it('should handle trailing slashes in ls', async () => {
    const { backend } = make();

    const files: Record<string, string> = {
      '/file.txt': 'content',
      '/dir/nested.txt': 'nested',
    };

    for (const [path, content] of Object.entries(files)) {
      const res = await backend.write(path, content);
      expect(res.error).toBeUndefined();
    }

    const listingWithSlash = await backend.ls('/');
    expect(listingWithSlash.error).toBeUndefined();
    expect(listingWithSlash.files).toHaveLength(2);
    const rootPaths = listingWithSlash.files!.map((fi) => fi.path);
    expect(rootPaths).toContain('/file.txt');
    expect(rootPaths).toContain('/dir/');

    const listingFromDir = await backend.ls('/dir/');
    expect(listingFromDir.error).toBeUndefined();
    expect(listingFromDir.files).toHaveLength(1);
    expect(listingFromDir.files![0]!.path).toBe('/dir/nested.txt');
  });

  it('should handle read with offset and limit', async () => {
    const { backend } = make();

    const content = 'line1\nline2\nline3\nline4\nline5';
    await backend.write('/multiline.txt', content);

    const readWithOffset = await backend.read('/multiline.txt', 2, 2);
    expect(readWithOffset.error).toBeUndefined();
    expect(readWithOffset.content).toContain('line3');
    expect(readWithOffset.content).toContain('line4');
    expect(readWithOffset.content).not.toContain('line1');
    expect(readWithOffset.content).not.toContain('line5');
  });

  it('should handle edit with replace_all', async () => {
    const { backend } = make();

    await backend.write('/repeat.txt', 'foo bar foo baz foo');

    const editSingle = await backend.edit('/repeat.txt', 'foo', 'qux', false);
    expect(editSingle.error).toBeDefined();
    expect(editSingle.error).toContain('appears 3 times');

    const editAll = await backend.edit('/repeat.txt', 'foo', 'qux', true);
    expect(editAll.error).toBeUndefined();
    expect(editAll.occurrences).toBe(3);

    const readAfter = await backend.read('/repeat.txt');
    expect(readAfter.content).toContain('qux bar qux baz qux');
    expect(readAfter.content).not.toContain('foo');
  });

  it('should handle grep with glob filter', async () => {
    const { backend } = make();

    const files: Record<string, string> = {
      '/test.py': 'import os',
      '/test.js': 'import fs',
      '/readme.md': 'import guide',
    };

    for (const [path, content] of Object.entries(files)) await backend.write(path, content);

    const grepRes = await backend.grep('import', '/', '*.py');
    expect(grepRes.error).toBeUndefined();
    expect(grepRes.matches).toHaveLength(1);
    expect(grepRes.matches![0]!.path).toBe('/test.py');
  });

  it('should return ReadRawResult with v2 shape from readRaw', async () => {
    const { backend } = make();

    await backend.write('/data.txt', 'hello world');

    const raw = await backend.readRaw('/data.txt');
    expect(raw.error).toBeUndefined();
    expect(raw.data).toBeDefined();
    expect(typeof raw.data!.content).toBe('string');
    expect(raw.data!.content).toBe('hello world');
    expect(raw.data!.mimeType).toBe('text/plain');
    expect(raw.data!.created_at).toBeDefined();
    expect(raw.data!.modified_at).toBeDefined();
  });

  it('should return ReadRawResult with error for missing file', async () => {
    const { backend } = make();

    const raw = await backend.readRaw('/nonexistent.txt');
    expect(raw.error).toBeDefined();
    expect(raw.data).toBeUndefined();
  });

  it('should return ReadRawResult for binary files with Uint8Array content', async () => {
    const { backend } = make();

    const pngBytes = PNG_SIGNATURE();
    await backend.uploadFiles([['/image.png', pngBytes]]);

    const raw = await backend.readRaw('/image.png');
    expect(raw.error).toBeUndefined();
    expect(raw.data).toBeDefined();
    expect(raw.data!.content).toBeInstanceOf(Uint8Array);
    expect(raw.data!.content).toEqual(pngBytes);
    expect(raw.data!.mimeType).toBe('image/png');
  });

  // "should return ReadRawResult for v1 data with joined content": does not apply (agentvfs holds no v1 data).

  it('should return empty content warning for empty files', async () => {
    const { backend } = make();

    await backend.write('/empty.txt', '');

    const readRes = await backend.read('/empty.txt');
    expect(readRes.content).toBe('');
  });

  describe('uploadFiles', () => {
    it('should upload files and return filesUpdate (differs: no filesUpdate; the files are stored)', async () => {
      const { backend } = make();

      const files: Array<[string, Uint8Array]> = [
        ['/file1.txt', new TextEncoder().encode('content1')],
        ['/file2.txt', new TextEncoder().encode('content2')],
      ];

      const result = await backend.uploadFiles(files);
      expect(result).toHaveLength(2);
      expect(result[0]!.path).toBe('/file1.txt');
      expect(result[0]!.error).toBeNull();
      expect(result[1]!.path).toBe('/file2.txt');
      expect(result[1]!.error).toBeNull();

      expect((result as { filesUpdate?: unknown }).filesUpdate).toBeUndefined();
      expect((await backend.read('/file1.txt')).content).toBe('content1');
      expect((await backend.read('/file2.txt')).content).toBe('content2');
    });

    it('should handle binary content (adapted: the stored file is read back instead of inspected in state)', async () => {
      const { backend } = make();

      const binaryContent = new Uint8Array([0x48, 0x65, 0x6c, 0x6c, 0x6f]); // "Hello"
      const files: Array<[string, Uint8Array]> = [['/hello.txt', binaryContent]];

      const result = await backend.uploadFiles(files);
      expect(result[0]!.error).toBeNull();
      expect((await backend.readRaw('/hello.txt')).data!.content).toBe('Hello');
    });

    it('should upload binary (image) files as Uint8Array (adapted: read back instead of inspected in state)', async () => {
      const { backend } = make();

      const pngBytes = PNG_SIGNATURE();
      const result = await backend.uploadFiles([['/image.png', pngBytes]]);
      expect(result[0]!.error).toBeNull();

      const stored = (await backend.readRaw('/image.png')).data!;
      expect(stored.content).toBeInstanceOf(Uint8Array);
      expect(stored.content).toEqual(pngBytes);
    });
  });

  describe('downloadFiles', () => {
    it('should download existing files as Uint8Array', async () => {
      const { backend } = make();

      await backend.write('/test.txt', 'test content');

      const result = await backend.downloadFiles(['/test.txt']);
      expect(result).toHaveLength(1);
      expect(result[0]!.path).toBe('/test.txt');
      expect(result[0]!.error).toBeNull();
      expect(result[0]!.content).not.toBeNull();

      const content = new TextDecoder().decode(result[0]!.content!);
      expect(content).toBe('test content');
    });

    it('should return file_not_found for missing files', async () => {
      const { backend } = make();

      const result = await backend.downloadFiles(['/nonexistent.txt']);
      expect(result).toHaveLength(1);
      expect(result[0]!.path).toBe('/nonexistent.txt');
      expect(result[0]!.content).toBeNull();
      expect(result[0]!.error).toBe('file_not_found');
    });

    it('should handle multiple files with mixed results', async () => {
      const { backend } = make();

      await backend.write('/exists.txt', 'I exist');

      const result = await backend.downloadFiles(['/exists.txt', '/missing.txt']);
      expect(result).toHaveLength(2);

      expect(result[0]!.error).toBeNull();
      expect(result[0]!.content).not.toBeNull();

      expect(result[1]!.error).toBe('file_not_found');
      expect(result[1]!.content).toBeNull();
    });

    it('should download binary files as raw bytes', async () => {
      const { backend } = make();

      const pngBytes = PNG_SIGNATURE();
      await backend.uploadFiles([['/image.png', pngBytes]]);

      const result = await backend.downloadFiles(['/image.png']);
      expect(result).toHaveLength(1);
      expect(result[0]!.error).toBeNull();
      expect(result[0]!.content).not.toBeNull();
      expect(new Uint8Array(result[0]!.content!)).toEqual(pngBytes);
    });
  });

  describe('binary file round-trip', () => {
    it('should upload and download binary files with identical bytes', async () => {
      const { backend } = make();

      const originalBytes = new Uint8Array(256);
      for (let i = 0; i < 256; i++) originalBytes[i] = i;

      const uploadResult = await backend.uploadFiles([['/data.png', originalBytes]]);
      expect(uploadResult[0]!.error).toBeNull();

      const downloadResult = await backend.downloadFiles(['/data.png']);
      expect(downloadResult[0]!.error).toBeNull();
      expect(new Uint8Array(downloadResult[0]!.content!)).toEqual(originalBytes);
    });

    it('should read binary files as Uint8Array content', async () => {
      const { backend } = make();

      const pngBytes = PNG_SIGNATURE();
      await backend.uploadFiles([['/photo.png', pngBytes]]);

      const readResult = await backend.read('/photo.png');
      expect(readResult.error).toBeUndefined();
      expect(readResult.content).toBeInstanceOf(Uint8Array);
      expect(readResult.content).toEqual(pngBytes);
    });

    it('should skip binary files in grep', async () => {
      const { backend } = make();

      const pngBytes = PNG_SIGNATURE();
      await backend.uploadFiles([['/image.png', pngBytes]]);

      await backend.write('/notes.txt', 'hello PNG');

      const grepRes = await backend.grep('PNG', '/');
      expect(grepRes.matches).toHaveLength(1);
      expect(grepRes.matches![0]!.path).toBe('/notes.txt');
    });

    it('should ignore offset/limit for binary reads (differs: equal bytes, not the same array: each read is a copy)', async () => {
      const { backend } = make();

      const pngBytes = PNG_SIGNATURE();
      await backend.uploadFiles([['/img.png', pngBytes]]);

      const full = await backend.read('/img.png');
      const withOffsetLimit = await backend.read('/img.png', 5, 2);
      expect(withOffsetLimit.content).toEqual(full.content);
    });
  });

  it('should handle large tool result interception via middleware (adapted: the result lands in agentvfs, so a ToolMessage, not a Command)', async () => {
    const { backend, store } = make();
    const middleware = createFilesystemMiddleware({ backend, toolTokenLimitBeforeEvict: 1000 });

    const largeContent = 'x'.repeat(5000);
    const toolMessage = new ToolMessage({ content: largeContent, tool_call_id: 'test_123', name: 'test_tool' });

    const mockToolFn = async () => toolMessage;
    const mockToolCall = { name: 'test_tool', args: {}, id: 'test_123' };

    const wrap = middleware.wrapToolCall as unknown as (request: object, handler: () => Promise<ToolMessage>) => Promise<ToolMessage>;
    const result = await wrap({ toolCall: mockToolCall, state: { files: {}, messages: [] }, runtime: {} }, mockToolFn);

    expect(result).toBeInstanceOf(ToolMessage);
    expect(await store.readText('/large_tool_results/test_123.txt')).toBe(largeContent);

    expect(result.content).toContain('Tool result too large');
    expect(result.content).toContain('/large_tool_results/test_123.txt');
  });

  // "fileFormat: v1" (4 cases) and "backwards compatibility: v2 backend reading v1 data" (5 cases):
  // do not apply: agentvfs has one storage format and never holds deepagents' v1 line arrays.

  describe('zero-arg constructor (adapted: no Pregel send; what the caller sees)', () => {
    it('write sends update via __pregel_send and returns no filesUpdate (differs: filesUpdate is null, the file is stored)', async () => {
      const { backend, store } = make();

      const result = await backend.write('/notes.txt', 'hello world');
      expect(result.error).toBeUndefined();
      expect(result.path).toBe('/notes.txt');
      expect(result.filesUpdate).toBeNull();
      expect(await store.readText('/notes.txt')).toBe('hello world');
    });

    it('edit sends update via __pregel_send and returns no filesUpdate (differs: filesUpdate is null, the file is stored)', async () => {
      const { backend, store } = make();

      await backend.write('/notes.txt', 'hello world');

      const result = await backend.edit('/notes.txt', 'hello', 'hi');
      expect(result.error).toBeUndefined();
      expect(result.path).toBe('/notes.txt');
      expect(result.filesUpdate).toBeNull();
      expect(result.occurrences).toBe(1);
      expect(await store.readText('/notes.txt')).toBe('hi world');
    });

    it('uploadFiles sends updates via __pregel_send and returns no filesUpdate', async () => {
      const { backend, store } = make();

      const files: Array<[string, Uint8Array]> = [
        ['/file1.txt', new TextEncoder().encode('content1')],
        ['/file2.txt', new TextEncoder().encode('content2')],
      ];

      const result = await backend.uploadFiles(files);
      expect(result).toHaveLength(2);
      expect(result[0]!.error).toBeNull();
      expect(result[1]!.error).toBeNull();
      expect((result as { filesUpdate?: unknown }).filesUpdate).toBeUndefined();
      expect(await store.readText('/file2.txt')).toBe('content2');
    });

    it('full CRUD cycle: write, read, edit, read, ls, grep, glob', async () => {
      const { backend } = make();

      await backend.write('/notes.txt', 'hello world');

      const readRes = await backend.read('/notes.txt');
      expect(readRes.content).toContain('hello world');

      await backend.edit('/notes.txt', 'hello', 'hi');

      const readRes2 = await backend.read('/notes.txt');
      expect(readRes2.content).toContain('hi world');

      const listing = await backend.ls('/');
      expect(listing.files!.some((fi) => fi.path === '/notes.txt')).toBe(true);

      const grepRes = await backend.grep('hi', '/');
      expect(grepRes.matches!.some((m) => m.path === '/notes.txt')).toBe(true);

      const globRes = await backend.glob('*.txt', '/');
      expect(globRes.files!.some((i) => i.path === '/notes.txt')).toBe(true);
    });

    // "accepts options without runtime": does not apply (the only option is fileFormat).
  });
});
