/** Load generation for the benchmarks: autocannon (pinned in package.json), run programmatically. */
import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(options: {
  url: string;
  connections: number;
  seconds: number;
  body?: string;
  headers?: Record<string, string>;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: 'POST',
    connections: options.connections,
    duration: options.seconds,
    body: options.body,
    headers: { 'content-type': 'application/json', ...options.headers },
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

/** Resident set size of a process, in MB (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** CPU time (user + system) a process has used so far, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await Bun.file(`/proc/${pid}/stat`).text();
  // Fields after the command name (which may hold spaces) start at state; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Starts a server script as a child process and waits until it answers. */
export async function startServer(script: string, env: Record<string, string>, port: number): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = Bun.spawn(['bun', script], { env: { ...process.env, ...env, PORT: String(port) }, stdout: 'ignore', stderr: 'inherit' });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${script} did not listen on ${port} within 60 s`);
      await Bun.sleep(200);
    }
  }
  return {
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
      if (!exited) child.kill('SIGKILL');
    },
  };
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
