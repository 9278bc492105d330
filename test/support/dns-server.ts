import dns2 from 'dns2';

/** DNS response codes (RFC 1035 §4.1.1); dns2 has them as Packet.RCODE but its types do not. */
const rcode = { NXDOMAIN: 3 } as const;

export interface TestDnsServer {
  /** `127.0.0.1:port`, as VERIFICATION_DNS_SERVERS takes it. */
  address: string;
  /** TXT records it answers, by lowercase name; any other name is NXDOMAIN. */
  txt: Map<string, string[][]>;
  close(): Promise<void>;
}

/** A DNS server on 127.0.0.1 (UDP) answering TXT questions from `txt`, so no test asks the system's. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[][]>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = dns2.Packet.createResponseFromRequest(request);
      const name = request.questions[0]?.name.toLowerCase() ?? '';
      const records = txt.get(name);
      if (!records) response.header.rcode = rcode.NXDOMAIN;
      for (const data of records ?? []) {
        response.answers.push({
          name,
          type: dns2.Packet.TYPE.TXT,
          class: dns2.Packet.CLASS.IN,
          ttl: 60,
          data,
        } as (typeof response.answers)[number]);
      }
      void send(response);
    },
  });
  const { udp } = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { address: `127.0.0.1:${udp!.port}`, txt, close: () => server.close() };
}
