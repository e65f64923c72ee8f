import { type FieldProblem, REQUIRED } from '../../../core';
import type { FormValues } from './form';

/** Problems of the report form by the form field they belong to, in the words of the form. */
export type FormErrors = Record<string, string[]>;

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.?!]$/.test(text) ? '' : '.'}`;

/** The form field a refused API field belongs to, and what to tell the person filling in the form. */
function explain({ field, problem }: FieldProblem, values: FormValues): [string, string] {
  const root = /^[A-Za-z]+/.exec(field)?.[0] ?? '';
  switch (root) {
    case 'name':
      return ['name', problem === REQUIRED ? 'Give the report a name.' : sentence(`the name ${problem}`)];
    case 'sendTime':
      return ['sendTime', 'Enter a time such as 09:00 (from 00:00 to 23:59).'];
    case 'reportDateRange':
      if (values.reportDateRange !== 'custom') return ['reportDateRange', 'Choose a period from the list.'];
      if (values.customStart === '' || values.customEnd === '') return ['reportDateRange', 'Give the first and the last day of the custom period.'];
      return ['reportDateRange', 'The first day of the custom period must not be after the last one.'];
    case 'recipients':
      if (field !== 'recipients') return ['recipients', sentence(problem.replace('is not a valid e-mail address', 'is not an e-mail address'))];
      if (problem.startsWith('a scheduled report needs')) return ['recipients', 'Add at least one recipient, or untick “Send automatically on schedule”.'];
      return ['recipients', sentence(problem.replace(/^may hold at most (\d+) addresses$/, 'send to at most $1 addresses'))];
    case 'content':
      return ['blocks', problem.startsWith('may hold at most') ? sentence(`choose ${problem.replace('may hold ', '')}`) : 'Choose the blocks from the list.'];
    case 'dayOfWeek':
      return ['dayOfWeek', 'Choose the day the report goes out.'];
    case 'weekOfMonth':
      return ['weekOfMonth', 'Choose the week of the month the report goes out.'];
    case 'frequency':
      return ['frequency', 'Choose how often the report goes out.'];
    case 'format':
      return ['format', 'Choose a format from the list.'];
    default:
      return ['', sentence(problem)];
  }
}

/** Every refused field of a save, next to the form field it belongs to (`''` for the form as a whole). */
export function formErrors(problems: readonly FieldProblem[], values: FormValues): FormErrors {
  const errors: FormErrors = {};
  for (const problem of problems) {
    const [key, text] = explain(problem, values);
    if (!(errors[key] ??= []).includes(text)) errors[key]!.push(text);
  }
  return errors;
}
