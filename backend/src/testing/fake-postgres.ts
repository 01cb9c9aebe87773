/**
 * A PostgreSQL server of a few dozen lines, for tests that need the server to fail at an exact
 * protocol step, which a real server only does by chance (the fault suite hit one such step in one
 * run of seven). It trusts every login, answers every query with an empty result, and lets the
 * test decide per connection what happens to that connection's first query.
 *
 * Protocol: https://www.postgresql.org/docs/current/protocol-message-formats.html
 */
import { createServer, type Server, type Socket } from 'node:net';

/** What a connection does with the first query it receives after its startup. */
export type FirstQuery =
  /** Answers it, like every later query: an empty result. */
  | 'answer'
  /** Sends the FATAL ErrorResponse that pg_terminate_backend produces and closes the connection. */
  | 'terminate'
  /** Sends an ERROR (canceled by statement_timeout) and ReadyForQuery: the connection lives on. */
  | 'cancel';

export interface FakePostgres {
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  /** What the next connection will do with its first query. */
  setFirstQuery(behaviour: FirstQuery): void;
  /** Stops listening when a connection is terminated, so the driver's reconnect is refused. */
  refuseAfterTerminate(refuse: boolean): void;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
  stop(): Promise<void>;
}

const message = (type: string, body: Buffer = Buffer.alloc(0)) => {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const cstring = (s: string) => Buffer.from(`${s}\0`, 'utf8');
const errorResponse = (severity: string, code: string, text: string) =>
  message('E', Buffer.concat([cstring(`S${severity}`), cstring(`V${severity}`), cstring(`C${code}`), cstring(`M${text}`), Buffer.from([0])]));
const readyForQuery = message('Z', Buffer.from('I'));
// ParseComplete, ParameterDescription (no parameters), NoData, BindComplete, CommandComplete.
const emptyResult = Buffer.concat([message('1'), message('t', Buffer.from([0, 0])), message('n'), message('2'), message('C', cstring('SELECT 0'))]);

export async function startFakePostgres(): Promise<FakePostgres> {
  let accepted = 0;
  let firstQuery: FirstQuery = 'answer';
  let refuse = false;
  const sockets = new Set<Socket>();
  let server: Server;
  let port = 0;

  const serve = (socket: Socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const behaviour = firstQuery;
    firstQuery = 'answer';
    let started = false;
    let queries = 0;
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        if (!started) {
          // StartupMessage: int32 length, int32 protocol, parameters; no type byte.
          if (buffered.length < 4 || buffered.length < buffered.readInt32BE(0)) return;
          buffered = buffered.subarray(buffered.readInt32BE(0));
          started = true;
          socket.write(Buffer.concat([message('R', int32(0)), readyForQuery]));
          continue;
        }
        if (buffered.length < 5 || buffered.length < buffered.readInt32BE(1) + 1) return;
        const type = String.fromCharCode(buffered[0]!);
        buffered = buffered.subarray(buffered.readInt32BE(1) + 1);
        if (type === 'X') return void socket.end();
        // Sync ends an extended-protocol query; Q is a simple query. Either gets one answer.
        if (type !== 'S' && type !== 'Q') continue;
        if (queries++ === 0 && behaviour === 'terminate') {
          if (refuse) server.close();
          socket.end(errorResponse('FATAL', '57P01', 'terminating connection due to administrator command'));
          return;
        }
        if (queries === 1 && behaviour === 'cancel') {
          socket.write(Buffer.concat([message('1'), errorResponse('ERROR', '57014', 'canceling statement due to statement timeout'), readyForQuery]));
          continue;
        }
        socket.write(Buffer.concat([emptyResult, readyForQuery]));
      }
    });
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer(serve);
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();

  return {
    url: `postgres://fake@127.0.0.1:${port}/fake`,
    connections: () => accepted,
    setFirstQuery: (behaviour) => {
      firstQuery = behaviour;
    },
    refuseAfterTerminate: (value) => {
      refuse = value;
    },
    reopen: listen,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    },
  };
}
