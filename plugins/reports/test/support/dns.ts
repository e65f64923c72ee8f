import dns2 from 'dns2';
import { freePort } from '../../../../test/helpers/test-kernel';

const { Packet } = dns2;
type Resource = InstanceType<typeof Packet>['answers'][number];
/** RFC 1035 response code for a name that does not exist (missing from the package's types). */
const NXDOMAIN = 3;

export interface TestDns {
  /** Value for `SVC_DNS_SERVERS`. */
  server: string;
  /** Domains that answer: with an MX record, an A record, or both. Every other name is NXDOMAIN. */
  zones: Map<string, { mx?: string; a?: string }>;
  close(): Promise<void>;
}

/** A DNS server the test controls, on a local UDP port. */
export async function startDns(zones: Record<string, { mx?: string; a?: string }>): Promise<TestDns> {
  const map = new Map(Object.entries(zones));
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase();
      const zone = map.get(name);
      if (!zone) {
        response.header.rcode = NXDOMAIN;
      } else if (question?.type === Packet.TYPE.MX && zone.mx) {
        response.answers.push({ name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, exchange: zone.mx, priority: 10 } as Resource);
      } else if (question?.type === Packet.TYPE.A && zone.a) {
        response.answers.push({ name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address: zone.a } as Resource);
      }
      send(response);
    },
  });
  const port = await freePort();
  await server.listen({ udp: { port, address: '127.0.0.1' } });
  return { server: `127.0.0.1:${port}`, zones: map, close: () => server.close() };
}
