import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const FILE = path.join(__dirname, 'hooks.types.ts');
const EXPECT = '// @ts-expect-error';

function compilerOptions(): ts.CompilerOptions {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  return { ...config!.options, noEmit: true };
}

/** Type-checks the file (optionally with its text replaced) and returns "line: message" for each diagnostic in it. */
function diagnostics(options: ts.CompilerOptions, replace?: (text: string) => string): string[] {
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => {
    const text = readFile(name);
    return replace && path.resolve(name) === FILE && text !== undefined ? replace(text) : text;
  };
  const program = ts.createProgram({ rootNames: [FILE, path.join(ROOT, 'hooks.d.ts')], options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(ROOT, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '?';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

describe('hook types', () => {
  const options = compilerOptions();
  const source = ts.sys.readFile(FILE)!;
  const expectedLines = source
    .split('\n')
    .flatMap((line, i) => (line.trim().startsWith(EXPECT) ? [i + 2] : []));

  it('compiles: right uses pass and every @ts-expect-error line really fails', () => {
    expect(expectedLines.length).toBeGreaterThanOrEqual(10);
    expect(diagnostics(options)).toEqual([]);
  });

  it('fails exactly on the marked lines once the expectations are removed', () => {
    const errors = diagnostics(options, (text) => text.split('\n').map((l) => (l.trim().startsWith(EXPECT) ? '' : l)).join('\n'));
    const lines = [...new Set(errors.map((e) => Number(/:(\d+):/.exec(e)?.[1])))].sort((a, b) => a - b);
    expect(lines).toEqual(expectedLines);
  });
});
