/**
 * A TCP port that was free a moment ago (the kernel picks it for a listener that is closed at once),
 * for servers the tests, the fault suite and the benches start as child processes.
 */
export function freePort(): number {
  const server = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = server.port!;
  server.stop(true);
  return port;
}
