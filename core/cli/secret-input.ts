import { read } from 'read';
import { UsageError } from './args';
import type { CliRuntime } from './runtime';

/** Longest input read from a pipe; a password is one short line. */
const PIPE_LIMIT = 64 * 1024;

/** The first line of a piped stdin. */
async function firstLine(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.includes('\n') || text.length > PIPE_LIMIT) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/**
 * A new secret for a command: asked twice at a terminal without echo, or
 * the first line of stdin when it is a pipe (`printf '%s\n' "$PW" | svc …`).
 */
export async function readNewSecret(rt: Pick<CliRuntime, 'stdin' | 'prompts'>, what: string): Promise<string> {
  if (!rt.stdin.isTTY) {
    const piped = await firstLine(rt.stdin);
    if (piped === '') throw new UsageError(`no ${what} on stdin: type it at the prompt, or pipe it in on one line`);
    return piped;
  }
  const ask = (prompt: string) => read({ prompt, silent: true, replace: '*', input: rt.stdin, output: rt.prompts });
  const first = await ask(`New ${what}: `);
  const again = await ask(`New ${what} again: `);
  if (first !== again) throw new UsageError(`the two ${what}s are not the same; nothing was changed`);
  return first;
}

/** A yes/no question at a terminal; false without one. */
export async function confirmAtTerminal(rt: Pick<CliRuntime, 'stdin' | 'prompts'>, question: string): Promise<boolean> {
  if (!rt.stdin.isTTY) return false;
  const answer = await read({ prompt: `${question} [y/N] `, input: rt.stdin, output: rt.prompts });
  return /^y(es)?$/i.test(answer.trim());
}
