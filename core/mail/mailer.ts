import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Clock } from '../clock';
import { type DomainResolver, recipientDomainIsValid } from './dns-check';

export interface MailMessage {
  to: string | string[];
  subject: string;
  html: string;
  /** Plain-text alternative; recommended for every HTML mail. */
  text?: string;
  from?: string;
  headers?: Record<string, string>;
  /** A fixed `Message-ID` (`<id@host>`), so a mail sent again after a crash is recognisable as the same one; nodemailer makes one up otherwise. */
  messageId?: string;
}

export interface MailResult {
  messageId: string;
  accepted: string[];
  rejected: string[];
  /** The .eml file written when no SMTP server is configured. */
  file?: string;
}

export interface MailerOptions {
  smtpUrl: string | null;
  from: string;
  outboxDir: string;
  resolver: DomainResolver;
  clock: Clock;
}

/**
 * HTML UTF-8 mail through nodemailer: over SMTP when `SVC_SMTP_URL` is set,
 * otherwise written as `.eml` files to the outbox folder.
 */
export class Mailer {
  /** Made on the first mail: nodemailer is loaded only by a process that sends one. */
  private transport: Promise<Transporter> | null = null;
  /** True when mail leaves over SMTP; false in outbox mode. */
  readonly delivers: boolean;

  constructor(private readonly options: MailerOptions) {
    this.delivers = Boolean(options.smtpUrl);
  }

  private async createTransport(): Promise<Transporter> {
    const { default: nodemailer } = await import('nodemailer');
    return this.options.smtpUrl
      ? nodemailer.createTransport(this.options.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  /** Whether the recipient's domain has an MX, A or AAAA record (via `SVC_DNS_SERVERS`). */
  checkRecipientDomain(email: string): Promise<boolean> {
    return recipientDomainIsValid(this.options.resolver, email);
  }

  /**
   * Whether to send to `email`: over SMTP only when its domain can receive
   * mail (`checkRecipientDomain`); the outbox takes every address, so a
   * test send without SMTP lands there whatever the domain.
   */
  async shouldSendTo(email: string): Promise<boolean> {
    return !this.delivers || this.checkRecipientDomain(email);
  }

  async send(message: MailMessage): Promise<MailResult> {
    const transport = await (this.transport ??= this.createTransport());
    const info = await transport.sendMail({
      from: message.from ?? this.options.from,
      to: message.to,
      subject: message.subject,
      html: message.html,
      text: message.text,
      headers: message.headers,
      messageId: message.messageId,
      encoding: 'utf-8',
      textEncoding: 'quoted-printable',
    });
    const accepted = (info.accepted ?? []).map(String);
    const rejected = (info.rejected ?? []).map(String);
    if (this.options.smtpUrl) return { messageId: info.messageId, accepted, rejected };
    await fs.mkdir(this.options.outboxDir, { recursive: true });
    const file = path.join(this.options.outboxDir, `${this.options.clock.ms()}-${info.messageId.replace(/[^A-Za-z0-9.@-]/g, '')}.eml`);
    await fs.writeFile(file, info.message as Buffer);
    const to = Array.isArray(message.to) ? message.to : [message.to];
    return { messageId: info.messageId, accepted: to, rejected: [], file };
  }

  close(): void {
    void this.transport?.then((transport) => transport.close(), () => undefined);
  }
}
