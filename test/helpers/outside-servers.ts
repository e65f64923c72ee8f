import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  /** RCPT TO addresses of the SMTP envelope. */
  to: string[];
  /** The message as it went over the wire (headers and MIME body). */
  raw: string;
  /** The message parsed (subject, html, text, attachments...). */
  parsed: Email;
}

export interface TestSmtpServer {
  /** Value for `SVC_SMTP_URL`. */
  url: string;
  received: ReceivedMail[];
  /** Recipients the server refuses at RCPT TO with a 550 (lowercase addresses). */
  refuse: Set<string>;
  /**
   * Accepts `count` more messages, then leaves the next one unanswered, as
   * a server that hangs before its final reply: that message is never
   * received (its sender cannot know it arrived). Resolves with its raw
   * text once it has come in.
   */
  stallAfter(count: number): Promise<string>;
  /** Forgets what was received. */
  clear(): void;
  close(): Promise<void>;
}

/** A real SMTP server on a free local port that keeps what it receives (no TLS, no auth). */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const refuse = new Set<string>();
  let stall: { after: number; arrived(raw: string): void } | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase())) callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (stall && stall.after-- === 0) {
          stall.arrived(raw);
          stall = null;
          return;
        }
        PostalMime.parse(raw).then((parsed) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            parsed,
          });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse,
    stallAfter: (count) => new Promise((arrived) => (stall = { after: count, arrived })),
    clear: () => void received.splice(0),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** RFC 1035 response code for a name that does not exist (missing from the package's types). */
const NXDOMAIN = 3;

export interface DnsZone {
  mx?: string[];
  a?: string[];
  aaaa?: string[];
}

export interface TestDnsServer {
  /** Value for `SVC_DNS_SERVERS`, e.g. `127.0.0.1:5353`. */
  server: string;
  /** `TYPE name` of every question asked, in order. */
  queries: string[];
  close(): Promise<void>;
}

/** A real DNS server (UDP, dns2) on a free local port answering from `zones`; unknown names are NXDOMAIN. */
export async function startDnsServer(zones: Record<string, DnsZone>): Promise<TestDnsServer> {
  const { Packet } = dns2;
  const queries: string[] = [];
  const typeName = (type: number) => Object.entries(Packet.TYPE).find(([, v]) => v === type)?.[0] ?? String(type);
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      for (const question of request.questions) {
        queries.push(`${typeName(question.type)} ${question.name}`);
        const zone = zones[question.name.toLowerCase()];
        if (!zone) response.header.rcode = NXDOMAIN;
        const base = { name: question.name, class: Packet.CLASS.IN, ttl: 60 };
        if (question.type === Packet.TYPE.MX) for (const exchange of zone?.mx ?? []) response.answers.push({ ...base, type: Packet.TYPE.MX, exchange, priority: 10 } as never);
        if (question.type === Packet.TYPE.A) for (const address of zone?.a ?? []) response.answers.push({ ...base, type: Packet.TYPE.A, address } as never);
        if (question.type === Packet.TYPE.AAAA) for (const address of zone?.aaaa ?? []) response.answers.push({ ...base, type: Packet.TYPE.AAAA, address } as never);
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { server: `127.0.0.1:${addresses.udp!.port}`, queries, close: () => server.close() };
}
