/**
 * Starting and stopping the processes the e2e suite runs against (backend, CLI, merchant app),
 * with every byte of their output in a log file, so a failure can be read after the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';

export interface RunningProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
}

/** A port that was free a moment ago. The service binds it right after, so the race is harmless in practice. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface StartOptions {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
}

export function startProcess(options: StartOptions): RunningProcess {
  const log = openSync(options.logFile, 'w');
  try {
    const child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ['ignore', log, log] });
    // A spawn failure (e.g. bun not on PATH) surfaces through waitUntilReady as an exit.
    child.on('error', () => {});
    return { name: options.name, child, logFile: options.logFile };
  } finally {
    closeSync(log);
  }
}

/** Polls `url` until it answers 200, failing early (with the log's tail) if the process exits. */
export async function waitUntilReady(process: RunningProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (process.child.exitCode !== null || process.child.signalCode !== null) {
      throw new Error(`${process.name} exited (${process.child.exitCode ?? process.child.signalCode}) before ${url} answered.\n${logTail(process.logFile)}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      lastProblem = `HTTP ${response.status}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`${process.name}: ${url} not ready after ${timeoutMs} ms (${lastProblem}).\n${logTail(process.logFile)}`);
}

/** SIGTERM, then SIGKILL if the process has not exited after `graceMs`. */
export async function stopProcess(process: RunningProcess, graceMs = 5_000): Promise<void> {
  const { child } = process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export interface CommandResult {
  exitCode: number;
  stdout: string;
}

/** Runs a command to completion; stdout is returned and, with stderr, appended to `logFile`. */
export function runCommand(options: StartOptions): Promise<CommandResult> {
  const log = openSync(options.logFile, 'a');
  return new Promise<CommandResult>((resolve, reject) => {
    const child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', log] });
    let stdout = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => (stdout += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      writeSync(log, stdout);
      resolve({ exitCode: code ?? -1, stdout });
    });
  }).finally(() => closeSync(log));
}

export function logTail(logFile: string, lines = 40): string {
  try {
    const text = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    return `--- last lines of ${logFile} ---\n${text}`;
  } catch {
    return `(no log at ${logFile})`;
  }
}
