import fs from 'node:fs';
import { type TestDnsServer, type TestSmtpServer, startDnsServer, startSmtpServer } from '../helpers/outside-servers';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const MESSAGE = {
  to: 'Zoë Ünal <zoe@example.org>',
  subject: 'Wöchentlicher Bericht ✓',
  html: '<p>Grüße aus Köln – <b>svc</b> 📈</p>',
  text: 'Grüße aus Köln – svc 📈',
};

/** `=XX` runs to the UTF-8 text they encode. */
const hexBytes = (s: string) => s.replace(/(?:=[0-9A-F]{2})+/gi, (m) => Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8'));

/** Decodes encoded-word headers, then quoted-printable bodies, of a raw message into plain UTF-8 text. */
function decode(raw: string): string {
  const headers = raw.replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : hexBytes(text.replace(/_/g, ' ')),
  );
  return hexBytes(headers.replace(/=\r?\n/g, ''));
}

function expectHtmlUtf8WithText(raw: string): void {
  expect(raw).toMatch(/^Content-Type: multipart\/alternative;/im);
  expect(raw).toMatch(/^Content-Type: text\/plain; charset=utf-8/im);
  expect(raw).toMatch(/^Content-Type: text\/html; charset=utf-8/im);
  const text = decode(raw);
  expect(text).toContain('Subject: Wöchentlicher Bericht ✓');
  expect(text).toContain('<p>Grüße aus Köln – <b>svc</b> 📈</p>');
  expect(text).toContain('Grüße aus Köln – svc 📈');
}

describe('mail over SMTP', () => {
  let smtp: TestSmtpServer;
  let tk: TestKernel;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    tk = await createTestKernel({ env: { SVC_SMTP_URL: smtp.url, SVC_MAIL_FROM: 'Reports <reports@svc.example>' } });
  });
  afterAll(async () => {
    await tk?.close();
    await smtp?.close();
  });

  it('sends HTML in UTF-8 with a text part, from SVC_MAIL_FROM', async () => {
    const result = await tk.kernel.mailer.send(MESSAGE);
    expect(result.accepted).toEqual(['zoe@example.org']);
    expect(result.file).toBeUndefined();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.from).toBe('reports@svc.example');
    expect(mail!.to).toEqual(['zoe@example.org']);
    expectHtmlUtf8WithText(mail!.raw);
    expect(fs.existsSync(`${tk.dataDir}/outbox`)).toBe(false);
  });

  it('reports a recipient the server refuses', async () => {
    smtp.refuse.add('gone@example.org');
    await expect(tk.kernel.mailer.send({ ...MESSAGE, to: 'gone@example.org' })).rejects.toThrow(/550/);
    const partly = await tk.kernel.mailer.send({ ...MESSAGE, to: ['gone@example.org', 'zoe@example.org'] });
    expect(partly.accepted).toEqual(['zoe@example.org']);
    expect(partly.rejected).toEqual(['gone@example.org']);
  });
});

describe('mail without SVC_SMTP_URL', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel();
  });
  afterAll(() => tk?.close());

  it('writes each message as an .eml file to the outbox folder', async () => {
    const first = await tk.kernel.mailer.send(MESSAGE);
    const second = await tk.kernel.mailer.send({ ...MESSAGE, subject: 'Second' });
    expect(first.file).toMatch(new RegExp(`^${tk.dataDir}/outbox/.+\\.eml$`));
    expect(second.file).not.toBe(first.file);
    expect(fs.readdirSync(`${tk.dataDir}/outbox`).sort()).toHaveLength(2);
    const raw = fs.readFileSync(first.file!, 'utf8');
    expect(raw).toMatch(/^From: svc@127\.0\.0\.1$/m);
    expect(decode(raw)).toMatch(/^To: Zoë Ünal <zoe@example\.org>$/m);
    expectHtmlUtf8WithText(raw);
    expect(first.accepted).toEqual([MESSAGE.to]);
  });
});

describe('recipient domain check', () => {
  let dns: TestDnsServer;
  let tk: TestKernel;
  beforeAll(async () => {
    dns = await startDnsServer({
      'mx.test': { mx: ['mail.mx.test'], a: ['192.0.2.1'] },
      'a-only.test': { a: ['192.0.2.2'] },
      'aaaa-only.test': { aaaa: ['2001:db8::1'] },
    });
    tk = await createTestKernel({ env: { SVC_DNS_SERVERS: dns.server } });
  });
  afterAll(async () => {
    await tk?.close();
    await dns?.close();
  });
  beforeEach(() => void dns.queries.splice(0));

  it('accepts a domain with an MX record without asking further', async () => {
    expect(await tk.kernel.mailer.checkRecipientDomain('owner@MX.test')).toBe(true);
    expect(dns.queries).toEqual(['MX mx.test']);
  });

  it('falls back to A, then AAAA records', async () => {
    expect(await tk.kernel.mailer.checkRecipientDomain('a@a-only.test')).toBe(true);
    expect(dns.queries).toEqual(['MX a-only.test', 'A a-only.test']);
    dns.queries.splice(0);
    expect(await tk.kernel.mailer.checkRecipientDomain('b@aaaa-only.test')).toBe(true);
    expect(dns.queries).toEqual(['MX aaaa-only.test', 'A aaaa-only.test', 'AAAA aaaa-only.test']);
  });

  it('refuses a domain without records and addresses that are not e-mail addresses', async () => {
    expect(await tk.kernel.mailer.checkRecipientDomain('c@nothing.test')).toBe(false);
    expect(dns.queries).toEqual(['MX nothing.test', 'A nothing.test', 'AAAA nothing.test']);
    dns.queries.splice(0);
    for (const bad of ['', 'no-at-sign', 'two@@mx.test', 'x@localhost', 'spaced out@mx.test']) {
      expect(await tk.kernel.mailer.checkRecipientDomain(bad)).toBe(false);
    }
    expect(dns.queries).toEqual([]);
  });
});
