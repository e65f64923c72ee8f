import { isSvcError } from '../../core/errors';
import {
  FieldProblems,
  MULTI_LINE,
  ONE_LINE,
  REQUIRED,
  absent,
  choice,
  flag,
  object,
  optionalFlag,
  optionalObject,
  problemsOf,
  refuse,
  text,
  wholeNumber,
  within,
} from '../../core/validation';

/** The refusal `read` throws: status, code and the named fields with their problems. */
function refusalOf(read: () => unknown) {
  try {
    read();
  } catch (err) {
    if (!isSvcError(err)) throw err;
    return { status: err.status, code: err.code, message: err.message, data: err.data, problems: problemsOf(err) };
  }
  throw new Error('accepted');
}

describe('the validation kit', () => {
  it('reads yes/no fields one way everywhere', () => {
    for (const yes of [true, 1, '1', 'true']) expect(flag(yes, 'on')).toBe(true);
    for (const no of [false, 0, '0', 'false']) expect(flag(no, 'on')).toBe(false);
    for (const bad of ['yes', 'on', 2, -1, '', null, undefined, 'TRUE', [], {}]) {
      expect(refusalOf(() => flag(bad, 'on'))).toEqual({
        status: 400,
        code: 'svc_invalid_param',
        message: 'on: must be true or false',
        data: { field: 'on' },
        problems: [{ field: 'on', problem: 'must be true or false' }],
      });
    }
  });

  it('treats a yes/no field that is not sent as no', () => {
    for (const missing of [undefined, null, '']) expect(optionalFlag(missing, 'on')).toBe(false);
    expect(optionalFlag('true', 'on')).toBe(true);
    expect(refusalOf(() => optionalFlag('maybe', 'permissions.can_filter')).data).toEqual({ field: 'permissions.can_filter' });
  });

  it('calls missing, null and the empty string not sent', () => {
    expect([undefined, null, '', ' ', 0, false].map(absent)).toEqual([true, true, true, false, false, false]);
  });

  it('reads texts: type, trimming, required, length in characters and a pattern', () => {
    expect(text('  Weekly  ', 'name', { max: 10 })).toBe('Weekly');
    expect(text('  two\nlines ', 'body', { max: 20, trim: false, pattern: MULTI_LINE })).toBe('  two\nlines ');
    expect(text(' A-b ', 'uid', { max: 5, clean: (raw) => raw.toLowerCase() })).toBe(' a-b ');
    expect(text('😀😀😀', 'title', { max: 3 })).toBe('😀😀😀');
    expect(refusalOf(() => text(5, 'name', { max: 10 })).message).toBe('name: must be text');
    expect(refusalOf(() => text('   ', 'name', { max: 10, required: true })).message).toBe(`name: ${REQUIRED}`);
    expect(refusalOf(() => text('x'.repeat(11), 'name', { max: 10 })).message).toBe('name: must be at most 10 characters');
    expect(refusalOf(() => text('a\tb', 'name', { max: 10, pattern: ONE_LINE })).message).toBe('name: must not contain control characters');
    expect(text('a\tb', 'body', { max: 10, pattern: MULTI_LINE })).toBe('a\tb');
    expect(refusalOf(() => text('a\u0007b', 'body', { max: 10, pattern: MULTI_LINE })).data).toEqual({ field: 'body' });
    expect(text('', 'hook', { max: 10, pattern: { test: /^[a-z]+$/, problem: 'must be lower case' } })).toBe('');
    expect(refusalOf(() => text('A', 'hook', { max: 10, pattern: { test: /^[a-z]+$/, problem: 'must be lower case' } })).message).toBe('hook: must be lower case');
  });

  it('reads a choice exactly, a number is not its text', () => {
    expect(choice('weekly', 'frequency', ['daily', 'weekly'])).toBe('weekly');
    expect(choice(2, 'week', [1, 2, 3])).toBe(2);
    expect(refusalOf(() => choice('2', 'week', [1, 2, 3])).message).toBe('week: must be one of 1, 2, 3');
    expect(refusalOf(() => choice(undefined, 'frequency', ['daily', 'weekly'])).message).toBe('frequency: must be one of daily, weekly');
  });

  it('reads whole numbers sent as numbers or text, within their range', () => {
    expect(wholeNumber(7, 'id', 1)).toBe(7);
    expect(wholeNumber(' 12 ', 'id', 1)).toBe(12);
    expect(wholeNumber('3.0', 'quantity', 1, 5)).toBe(3);
    for (const bad of [0, -1, 1.5, '1e3', 'abc', '', null, true, {}, Number.MAX_SAFE_INTEGER + 2]) {
      expect(refusalOf(() => wholeNumber(bad, 'id', 1)).message).toBe('id: must be a whole number of 1 or more');
    }
    expect(refusalOf(() => wholeNumber(6, 'quantity', 1, 5)).message).toBe('quantity: must be a whole number from 1 to 5');
  });

  it('reads objects, and an object that is not sent as empty', () => {
    expect(object({ a: 1 }, 'body')).toEqual({ a: 1 });
    for (const bad of [[], null, 'x', 1]) expect(refusalOf(() => object(bad, 'body')).message).toBe('body: must be an object');
    expect(optionalObject(undefined, 'permissions')).toEqual({});
    expect(optionalObject(null, 'permissions')).toEqual({});
    expect(refusalOf(() => optionalObject([], 'permissions')).data).toEqual({ field: 'permissions' });
  });

  it('names the fields of a part below its prefix', () => {
    expect(within('items[2].', () => wholeNumber('4', 'quantity', 1))).toBe(4);
    expect(refusalOf(() => within('items[2].', () => wholeNumber('x', 'quantity', 1))).message).toBe('items[2].quantity: must be a whole number of 1 or more');
    expect(() => within('items[2].', () => { throw new Error('boom'); })).toThrow('boom');
  });

  it('collects every refused field of one input into one 400', () => {
    const problems = new FieldProblems();
    const on = problems.check(() => flag('yes', 'enabled'), true);
    const name = problems.check(() => text(3, 'name', { max: 5 }), '');
    problems.check(() => {
      throw refuse('recipients', 'a scheduled report needs at least one recipient');
    }, null);
    expect([on, name]).toEqual([true, '']);
    expect(refusalOf(() => problems.throwIfAny())).toEqual({
      status: 400,
      code: 'svc_invalid_param',
      message: 'enabled: must be true or false; name: must be text; recipients: a scheduled report needs at least one recipient',
      data: {
        field: 'enabled',
        problems: [
          { field: 'enabled', problem: 'must be true or false' },
          { field: 'name', problem: 'must be text' },
          { field: 'recipients', problem: 'a scheduled report needs at least one recipient' },
        ],
      },
      problems: [
        { field: 'enabled', problem: 'must be true or false' },
        { field: 'name', problem: 'must be text' },
        { field: 'recipients', problem: 'a scheduled report needs at least one recipient' },
      ],
    });
  });
});
