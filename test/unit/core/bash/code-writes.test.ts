import { describe, expect, it } from "vitest";
import { mayWriteFiles } from "../../../../src/core/bash/code-writes.ts";

describe("interpreter code that could change files", () => {
  it.each([
    ["python3", "print(open('state.md').read())"],
    ["python3", "import json; print(json.load(open('plan/x.json'))['a'])"],
    ["python3", "import sys; sys.stdout.write(open('state.md').read())"],
    [
      "python3",
      "from pathlib import Path; print(Path('state.md').read_text())",
    ],
    ["python3", "print('a-b'.replace('-', '_'))"],
    ["node", "console.log(require('fs').readFileSync('state.md','utf8'))"],
    [
      "node",
      "const fs = require('node:fs'); console.log(fs.existsSync('plan'))",
    ],
    ["node", "console.log(`${1 + 1}`)"],
    ["perl", "open(my $f, '<', 'state.md'); print <$f>"],
    ["ruby", "puts File.read('state.md')"],
  ])("%s read-only: %s", (interpreter, code) => {
    expect(mayWriteFiles(interpreter, code)).toBe(false);
  });

  it.each([
    ["python3", "open('state.md','w').write('x')"],
    ["python3", "open('state.md', mode='a')"],
    ["python3", "import os; os.remove('state.md')"],
    ["python3", "from pathlib import Path; Path('state.md').write_text('x')"],
    ["python3", "from pathlib import Path; Path('state.md').replace('/tmp/x')"],
    ["python3", "import shutil; shutil.rmtree('plan')"],
    ["python3", "import subprocess; subprocess.run(['rm', 'state.md'])"],
    ["python3", "getattr(__import__('o'+'s'), 'rem'+'ove')('state.md')"],
    ["python3", "exec('x')"],
    ["node", "require('fs').writeFileSync('state.md','')"],
    ["node", "require('fs')['unlink' + 'Sync']('state.md')"],
    ["node", "require('child_process').execSync('rm state.md')"],
    ["node", "const m = 'fs'; require(m).rmSync('plan', {recursive: true})"],
    ["node", "import('node:fs').then(f => f.rmSync('x'))"],
    ["perl", "open(F, '>state.md'); print F 'x'"],
    ["perl", "unlink 'state.md'"],
    ["perl", "`rm state.md`"],
    ["ruby", "File.delete('state.md')"],
    ["ruby", "FileUtils.rm('state.md')"],
    ["php", "file_put_contents('state.md', 'x');"],
  ])("%s could write: %s", (interpreter, code) => {
    expect(mayWriteFiles(interpreter, code)).toBe(true);
  });
});
