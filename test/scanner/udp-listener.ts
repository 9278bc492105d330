import { createSocket } from 'node:dgram';

/** What a datagram was, by its STUN message type (RFC 5389, RFC 5766); QUIC and the rest are `other`. */
export type DatagramKind = 'stun-binding' | 'turn-allocate' | 'other';

export interface UdpListener {
  readonly port: number;
  /** Every datagram received so far, in order. */
  readonly received: DatagramKind[];
  /** Resolves once a datagram of this kind has arrived (at once if one already has). */
  arrival(kind: DatagramKind): Promise<void>;
  close(): Promise<void>;
}

/**
 * The address the listener hands back as the sender's, from TEST-NET-2: a page that learns it can
 * only have learnt it from this listener.
 */
export const reflexiveMarker = { address: '198.51.100.77', port: 4242 } as const;

const magicCookie = 0x2112a442;
const bindingRequest = 0x0001;
const bindingSuccess = 0x0101;
const allocateRequest = 0x0003;
const xorMappedAddress = 0x0020;

function kindOf(message: Buffer): DatagramKind {
  if (message.length < 20 || message.readUInt32BE(4) !== magicCookie) return 'other';
  const type = message.readUInt16BE(0);
  if (type === bindingRequest) return 'stun-binding';
  if (type === allocateRequest) return 'turn-allocate';
  return 'other';
}

/** A Binding Success answer to `request` that names `reflexiveMarker` as the sender's address. */
function bindingAnswer(request: Buffer): Buffer {
  const answer = Buffer.alloc(32);
  answer.writeUInt16BE(bindingSuccess, 0);
  answer.writeUInt16BE(12, 2);
  answer.writeUInt32BE(magicCookie, 4);
  request.copy(answer, 8, 8, 20);
  answer.writeUInt16BE(xorMappedAddress, 20);
  answer.writeUInt16BE(8, 22);
  answer.writeUInt8(0x01, 25); // IPv4
  answer.writeUInt16BE(reflexiveMarker.port ^ (magicCookie >>> 16), 26);
  // XOR-MAPPED-ADDRESS: the address XORed with the magic cookie, byte by byte.
  reflexiveMarker.address.split('.').forEach((octet, index) => {
    answer.writeUInt8(Number(octet) ^ answer[4 + index]!, 28 + index);
  });
  return answer;
}

/**
 * A UDP service on 127.0.0.1 standing for an internal STUN or TURN server: it records every
 * datagram and answers STUN Binding Requests, so a WebRTC page that reaches it gets a
 * server-reflexive candidate carrying `reflexiveMarker`.
 */
export async function startUdpListener(): Promise<UdpListener> {
  const socket = createSocket('udp4');
  const received: DatagramKind[] = [];
  const waiting = new Map<DatagramKind, (() => void)[]>();
  socket.on('message', (message, sender) => {
    const kind = kindOf(message);
    received.push(kind);
    for (const resolve of waiting.get(kind) ?? []) resolve();
    waiting.delete(kind);
    if (kind === 'stun-binding') socket.send(bindingAnswer(message), sender.port, sender.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    received,
    arrival: (kind) =>
      received.includes(kind)
        ? Promise.resolve()
        : new Promise((resolve) => waiting.set(kind, [...(waiting.get(kind) ?? []), resolve])),
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
