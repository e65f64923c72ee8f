import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** What an error code looks like: `svc_*` and `ability_*` answers, `SVC_ERR_*` kernel and plugin failures. */
export const CODE_RE = /^(svc_[a-z0-9_]+|ability_[a-z0-9_]+|SVC_ERR_[A-Z0-9_]+)$/;

/** One place the source creates or answers a code; `status` is null where the source does not fix it. */
export interface CodeUse {
  code: string;
  status: number | null;
  where: string;
}

export interface CodeScan {
  uses: CodeUse[];
  /** Code arguments the scan cannot read (built at run time); each is a finding, "file:line: text". */
  unreadable: string[];
}

/**
 * A function or class taking a `code: string` parameter: `SvcError`, the
 * helpers of core/errors.ts, and any wrapper a plugin writes the same way.
 */
interface Factory {
  codeIndex: number;
  codeDefault: string | null;
  statusIndex: number | null;
  statusDefault: number | null;
  /** The status the factory always answers (`badRequest` → 400), found in its body. */
  fixedStatus: number | null;
  body: ts.Node | undefined;
}

/** Every `.ts` source below `dirs` (and the single files in `dirs`), tests left out. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    const stat = fs.statSync(abs);
    if (stat.isFile()) {
      if (abs.endsWith('.ts') && !abs.endsWith('.test.ts')) out.push(abs);
      return;
    }
    for (const entry of fs.readdirSync(abs)) {
      if (entry === 'node_modules' || entry === 'test') continue;
      walk(path.join(abs, entry));
    }
  };
  for (const dir of dirs) walk(path.join(root, dir));
  return out.sort();
}

const literalText = (node: ts.Node): string | null =>
  ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : null;

const numberValue = (node: ts.Node | undefined): number | null => (node && ts.isNumericLiteral(node) ? Number(node.text) : null);

/** True when a parameter's type admits only strings (`string`, `'a' | 'b'`), or it has no type but a string default. */
function isStringParam(param: ts.ParameterDeclaration): boolean {
  const type = param.type;
  if (!type) return param.initializer !== undefined && literalText(param.initializer) !== null;
  const onlyStrings = (t: ts.TypeNode): boolean =>
    t.kind === ts.SyntaxKind.StringKeyword ||
    (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal)) ||
    (ts.isUnionTypeNode(t) && t.types.every(onlyStrings));
  return onlyStrings(type);
}

function factoryName(fn: ts.SignatureDeclaration): string | null {
  if (ts.isConstructorDeclaration(fn)) return fn.parent.name?.text ?? null;
  if (ts.isFunctionDeclaration(fn)) return fn.name?.text ?? null;
  const holder = fn.parent;
  if ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) return holder.name.text;
  return null;
}

/** A class that is an `Error`, directly or through other classes of the sources. */
function extendsError(cls: ts.ClassLikeDeclaration, classes: Map<string, ts.ClassLikeDeclaration>, seen = new Set<string>()): boolean {
  for (const clause of cls.heritageClauses ?? []) {
    if (clause.token !== ts.SyntaxKind.ExtendsKeyword) continue;
    for (const type of clause.types) {
      if (!ts.isIdentifier(type.expression)) continue;
      const base = type.expression.text;
      if (base === 'Error') return true;
      const parent = classes.get(base);
      if (parent && !seen.has(base) && extendsError(parent, classes, new Set([...seen, base]))) return true;
    }
  }
  return false;
}

/**
 * The error factories: constructors of `Error` classes with a `code` string
 * parameter, then every function that hands its own `code` parameter on to a
 * factory (`badRequest(message, code = 'svc_invalid_param')`), so a wrapper a
 * plugin writes is found the same way. Other functions with a `code` string
 * (country codes) are not factories.
 */
function findFactories(files: readonly ts.SourceFile[]): Map<string, Factory> {
  const candidates = new Map<ts.SignatureDeclaration, { name: string; factory: Factory }>();
  const classes = new Map<string, ts.ClassLikeDeclaration>();
  const visit = (node: ts.Node) => {
    if (ts.isClassDeclaration(node) && node.name) classes.set(node.name.text, node);
    if (ts.isConstructorDeclaration(node) || ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
      const name = factoryName(node);
      const params = node.parameters;
      const codeIndex = params.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === 'code' && isStringParam(p));
      if (name && codeIndex >= 0) {
        const statusIndex = params.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === 'status');
        const codeInit = params[codeIndex]!.initializer;
        candidates.set(node, {
          name,
          factory: {
            codeIndex,
            codeDefault: codeInit ? literalText(codeInit) : null,
            statusIndex: statusIndex >= 0 ? statusIndex : null,
            statusDefault: statusIndex >= 0 ? numberValue(params[statusIndex]!.initializer) : null,
            fixedStatus: null,
            body: node.body,
          },
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  for (const file of files) visit(file);

  const factories = new Map<string, Factory>();
  const accepted = new Set<ts.SignatureDeclaration>();
  const accept = (fn: ts.SignatureDeclaration, name: string, factory: Factory) => {
    const known = factories.get(name);
    if (known && known.codeIndex !== factory.codeIndex) throw new Error(`two error factories named ${name} take the code at different positions`);
    factories.set(name, factory);
    accepted.add(fn);
  };
  for (const [fn, { name, factory }] of candidates) {
    if (ts.isConstructorDeclaration(fn) && extendsError(fn.parent, classes)) accept(fn, name, factory);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const [fn, { name, factory }] of candidates) {
      if (accepted.has(fn)) continue;
      const hand = handsCodeOn(factory.body, factories);
      if (!hand) continue;
      accept(fn, name, { ...factory, fixedStatus: hand.status });
      grew = true;
    }
  }
  return factories;
}

/** Whether a body hands its `code` parameter to a known factory, and the status it answers there. */
function handsCodeOn(body: ts.Node | undefined, factories: Map<string, Factory>): { status: number | null } | null {
  const found: Array<{ status: number | null }> = [];
  const look = (node: ts.Node): void => {
    if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.arguments) {
      const inner = factories.get(calleeName(node) ?? '');
      const passed = inner ? node.arguments[inner.codeIndex] : undefined;
      if (inner && passed && ts.isIdentifier(passed) && passed.text === 'code') {
        const statusArg = inner.statusIndex === null ? undefined : node.arguments[inner.statusIndex];
        found.push({ status: inner.fixedStatus ?? (statusArg ? numberValue(statusArg) : inner.statusDefault) });
      }
    }
    ts.forEachChild(node, look);
  };
  if (body) look(body);
  return found[0] ?? null;
}

function calleeName(node: ts.CallExpression | ts.NewExpression): string | null {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return null;
}

/** Whether `name` is a parameter of a function around `node` (the code is handed on, not made here). */
function isEnclosingParam(node: ts.Node, name: string): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isFunctionLike(at) && at.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === name)) return true;
  }
  return false;
}

/** `const NAME = 'svc_x'` declarations of a file, for codes kept in constants. */
function stringConstants(file: ts.SourceFile): Map<string, ts.Expression> {
  const out = new Map<string, ts.Expression>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.getCombinedNodeFlags(node) & ts.NodeFlags.Const) {
      out.set(node.name.text, node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

type Resolved = { codes: string[]; unreadable: boolean };

/**
 * The codes an expression in a code position can hold. A code handed on
 * (`err.code`, a `code` parameter) holds none of its own; anything else the
 * scan cannot read is reported.
 */
function resolve(expr: ts.Expression, constants: Map<string, ts.Expression>, seen = new Set<string>()): Resolved {
  const text = literalText(expr);
  if (text !== null) return { codes: [text], unreadable: false };
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr)) return resolve(expr.expression, constants, seen);
  const both = (a: Resolved, b: Resolved): Resolved => ({ codes: [...a.codes, ...b.codes], unreadable: a.unreadable || b.unreadable });
  if (ts.isConditionalExpression(expr)) return both(resolve(expr.whenTrue, constants, seen), resolve(expr.whenFalse, constants, seen));
  if (ts.isBinaryExpression(expr) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(expr.operatorToken.kind)) {
    return both(resolve(expr.left, constants, seen), resolve(expr.right, constants, seen));
  }
  if ((ts.isPropertyAccessExpression(expr) && expr.name.text === 'code') || (ts.isPropertyAccessChain(expr) && expr.name.text === 'code')) {
    return { codes: [], unreadable: false };
  }
  if (ts.isIdentifier(expr)) {
    if (isEnclosingParam(expr, expr.text)) return { codes: [], unreadable: false };
    const init = constants.get(expr.text);
    if (init && !seen.has(expr.text)) return resolve(init, constants, new Set([...seen, expr.text]));
  }
  return { codes: [], unreadable: true };
}

/** Finds every code the sources create or answer, with the status where the source fixes it. */
export function scanErrorCodes(root: string, files: readonly string[]): CodeScan {
  const sources = files.map((f) => ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true));
  const factories = findFactories(sources);
  const uses: CodeUse[] = [];
  const unreadable: string[] = [];

  for (const file of sources) {
    const constants = stringConstants(file);
    const where = (node: ts.Node) => `${path.relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const record = (found: Resolved, node: ts.Node, status: number | null, strict: boolean) => {
      if (found.unreadable && strict) unreadable.push(`${where(node)}: ${node.getText().slice(0, 80)}`);
      for (const code of found.codes) {
        if (CODE_RE.test(code)) uses.push({ code, status, where: where(node) });
        else if (strict) unreadable.push(`${where(node)}: '${code}' is not written like an error code`);
      }
    };

    const visit = (node: ts.Node) => {
      if (ts.isNewExpression(node) || ts.isCallExpression(node)) {
        const factory = factories.get(calleeName(node) ?? '');
        if (factory) {
          const args = node.arguments ?? ts.factory.createNodeArray<ts.Expression>();
          const arg = args[factory.codeIndex];
          const statusArg = factory.statusIndex === null ? undefined : args[factory.statusIndex];
          const status = factory.fixedStatus ?? (statusArg ? numberValue(statusArg) : factory.statusDefault);
          if (arg) record(resolve(arg, constants), arg, status, true);
          else if (factory.codeDefault !== null) record({ codes: [factory.codeDefault], unreadable: false }, node, status, true);
        }
      }
      // `{ code: 'svc_x', status: 404 }` answered as it is, and `const code = … 'SVC_ERR_X'`.
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'code') {
        const status = ts.isObjectLiteralExpression(node.parent) ? siblingStatus(node.parent) : null;
        record(resolve(node.initializer, constants), node.initializer, status, false);
      }
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === 'code' && node.initializer) {
        record(resolve(node.initializer, constants), node.initializer, null, false);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return { uses, unreadable };
}

function siblingStatus(object: ts.ObjectLiteralExpression): number | null {
  for (const prop of object.properties) {
    if (ts.isPropertyAssignment(prop) && ts.isIdentifier(prop.name) && prop.name.text === 'status') return numberValue(prop.initializer);
  }
  return null;
}
