import { describe, expect, it } from 'vitest';
import { createFrameMapper, normalizeFramePath } from '../../src/core/frame-paths.js';

const FILES = [
  'src/x.py',
  'src/proj/parse.py',
  'lib/core/Axios.js',
  'src/jv.c',
  'src/decNumber/decNumber.c',
  'main.py',
  'internal/store/cache.go',
  'gson/src/main/java/com/google/gson/Gson.java',
  'pkg/a/util.ts',
  'pkg/b/util.ts',
];

describe('normalizeFramePath', () => {
  it('drops schemes, drive letters, query strings and ./', () => {
    expect(normalizeFramePath('file:///C:/work/proj/lib/a.js')).toBe('/work/proj/lib/a.js');
    expect(normalizeFramePath('webpack:///./src/client.ts')).toBe('src/client.ts');
    expect(normalizeFramePath('http://localhost:8080/static/app.js?v=3')).toBe('/static/app.js');
    expect(normalizeFramePath('C:\\Users\\me\\proj\\src\\x.py')).toBe('/Users/me/proj/src/x.py');
    expect(normalizeFramePath('./src/./x.py')).toBe('src/x.py');
  });
});

describe('createFrameMapper', () => {
  const map = createFrameMapper(FILES, '/home/me/proj');

  it('maps a path from another machine by its tail', () => {
    expect(map('/home/ci/build/proj/src/x.py')).toEqual({ paths: ['src/x.py'], segments: 2, whole: false });
    expect(map('C:\\agent\\_work\\1\\s\\src\\x.py')?.paths).toEqual(['src/x.py']);
  });

  it('maps a path under the local root exactly', () => {
    expect(map('/home/me/proj/src/jv.c')).toEqual({ paths: ['src/jv.c'], segments: 2, whole: true });
  });

  it('maps installed copies after their install root', () => {
    expect(map('/home/u/.venv/lib/python3.11/site-packages/proj/parse.py')?.paths).toEqual(['src/proj/parse.py']);
    expect(map('/app/node_modules/axios/lib/core/Axios.js')?.paths).toEqual(['lib/core/Axios.js']);
    expect(map('/root/go/pkg/mod/github.com/acme/proj@v1.2.0/internal/store/cache.go')?.paths).toEqual(['internal/store/cache.go']);
  });

  it('maps a bare file name, and a JVM package path into a module', () => {
    expect(map('jv.c')).toEqual({ paths: ['src/jv.c'], segments: 1, whole: true });
    expect(map('com/google/gson/Gson.java')).toMatchObject({ paths: ['gson/src/main/java/com/google/gson/Gson.java'], segments: 4, whole: true });
  });

  it('reports every file when several match equally', () => {
    expect(map('util.ts')?.paths).toEqual(['pkg/a/util.ts', 'pkg/b/util.ts']);
    expect(map('/ci/pkg/b/util.ts')?.paths).toEqual(['pkg/b/util.ts']);
  });

  it("never lands a reporter's own script on the repository's file of the same name", () => {
    expect(map('/home/u/scratch/main.py')).toBeUndefined();
    expect(map('/usr/lib/python3.11/json/decoder.py')).toBeUndefined();
    expect(map('node:internal/modules/cjs/loader')).toBeUndefined();
  });
});

describe('createFrameMapper on a name many files share', () => {
  it('points nowhere past twenty files, and maps a repeated frame once', () => {
    const files = Array.from({ length: 30 }, (_, i) => `pkg${i}/index.ts`);
    expect(createFrameMapper(files)('index.ts')).toBeUndefined();
    expect(createFrameMapper(files.slice(0, 20))('index.ts')?.paths).toHaveLength(20);
    expect(createFrameMapper(files)('pkg7/index.ts')?.paths).toEqual(['pkg7/index.ts']);
    const map = createFrameMapper(files.slice(0, 2));
    expect(map('index.ts')).toBe(map('index.ts'));
  });
});
