import { passwordProblem } from '../auth/users';

/** Problems of a form, by field name, shown next to each field at once. */
export type FieldErrors = Record<string, string>;

/** The problems of a new password typed twice (`<name>` and `<name>_again`), by field. */
export function newPasswordErrors(password: string, again: string, name = 'new_password'): FieldErrors {
  const problem = passwordProblem(password);
  if (problem) return { [name]: `Use ${problem}.` };
  return password === again ? {} : { [`${name}_again`]: 'The two passwords are not the same.' };
}
