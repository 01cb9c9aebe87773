/**
 * The CLI's command table: each command is declared once — its words, its options (type, whether
 * required, help) and its handler — and everything else is derived from the table: argument
 * checking, the `help` text, dispatch. The declarations are in commands/<group>.ts.
 */
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import type { GuardOptions } from '../modules/webhooks';
import { CLI_ERRORS } from './errors';

export interface CommandContext {
  db: Db;
  clock: Clock;
  guard: GuardOptions;
  /** PUBLIC_BASE_URL: the issuer of verification receipts. */
  publicBaseUrl?: string;
  /** SERVER_SECRET, resolved only by the commands that need it (receipt keys are sealed under it). */
  serverSecret?: () => Promise<string>;
}

/**
 * How an option is read. `string`: one value (the last wins); `list`: repeatable; `csv`: one
 * comma-separated value, as a list; `flag`: present or not; `choice`: one of `choices`;
 * `boolean`: true or false; `integer`: a whole number, or `keyword` (read as null);
 * `count`: a whole number ≥ 0, or `keyword` (read as null).
 */
export type OptionSpec = { value?: string; help?: string; required?: boolean; needs?: string } & (
  | { type: 'string' | 'list' | 'csv' | 'flag' | 'boolean' }
  | { type: 'choice'; choices: readonly string[] }
  | { type: 'integer' | 'count'; keyword?: string }
);

type ValueOf<S extends OptionSpec> = S extends { type: 'flag' }
  ? boolean
  : S extends { type: 'list' | 'csv' }
    ? S extends { required: true }
      ? string[]
      : string[] | undefined
    : S extends { type: 'boolean' }
      ? boolean | undefined
      : S extends { type: 'choice'; choices: readonly (infer C)[] }
        ? C | undefined
        : S extends { type: 'integer' | 'count' }
          ? number | null | undefined
          : S extends { required: true }
            ? string
            : string | undefined;

export type OptionValues<O extends Record<string, OptionSpec>> = { [K in keyof O]: ValueOf<O[K]> };

export interface CommandSpec<O extends Record<string, OptionSpec>> {
  /** As the usage shows it; alternatives in the last word: `webhooks enable|disable`. */
  command: string;
  summary?: string;
  options: O;
  /** `verb`: the alternative given (`enable` or `disable`). */
  run(ctx: CommandContext, values: OptionValues<O>, verb: string): Promise<unknown>;
}

export interface Command {
  command: string;
  summary?: string;
  options: Readonly<Record<string, OptionSpec>>;
  run(ctx: CommandContext, values: Record<string, unknown>, verb: string): Promise<unknown>;
}

/** Declares a command; its handler's values are typed by its options. */
export function defineCommand<const O extends Record<string, OptionSpec>>(spec: CommandSpec<O>): Command {
  return spec as unknown as Command;
}

/** `--name value`, `--name=value`, repeated options, and flags (options that take no value). */
export function parseArgs(argv: string[], flags: ReadonlySet<string>): { words: string[]; options: Map<string, string[]> } {
  const words: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    let value: string;
    if (inline !== undefined) value = inline;
    else if (flags.has(name)) value = 'true';
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw CLI_ERRORS.OPTION_NEEDS_VALUE({ option: name });
      value = next;
      i++;
    }
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  return { words, options };
}

/** Checks the options given against the command's table entry and reads them into values. */
export function readOptions(command: Command, words: string[], given: Map<string, string[]>): Record<string, unknown> {
  for (const name of given.keys()) if (!(name in command.options)) throw CLI_ERRORS.UNKNOWN_OPTION({ option: name, command: words.join(' ') });
  const last = (name: string) => given.get(name)?.at(-1);
  for (const [name, spec] of Object.entries(command.options)) {
    if (spec.needs && last(name) && !last(spec.needs)) throw CLI_ERRORS.OPTION_NEEDS_OPTION({ option: name, needs: spec.needs });
  }
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(command.options)) {
    const raw = last(name);
    if (spec.required && !raw) throw CLI_ERRORS.OPTION_REQUIRED({ option: name });
    values[name] = readValue(name, spec, raw, given.get(name));
  }
  return values;
}

function readValue(name: string, spec: OptionSpec, raw: string | undefined, all: string[] | undefined): unknown {
  switch (spec.type) {
    case 'flag':
      return raw === 'true';
    case 'list':
      return all;
    case 'csv':
      return raw
        ?.split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    case 'string':
      return raw;
  }
  if (raw === undefined) return undefined;
  switch (spec.type) {
    case 'boolean':
    case 'choice': {
      const choices = spec.type === 'choice' ? spec.choices : ['true', 'false'];
      if (!choices.includes(raw)) throw CLI_ERRORS.INVALID_CHOICE({ option: name, choices, value: raw });
      return spec.type === 'boolean' ? raw === 'true' : raw;
    }
    case 'integer':
    case 'count': {
      if (spec.keyword !== undefined && raw === spec.keyword) return null;
      const value = Number(raw);
      const atLeast = spec.type === 'count' ? 0 : Number.NEGATIVE_INFINITY;
      if (!Number.isInteger(value) || value < atLeast) {
        throw CLI_ERRORS.NOT_A_WHOLE_NUMBER({ option: name, value: raw, ...(spec.type === 'count' && spec.keyword && { or: spec.keyword }) });
      }
      return value;
    }
  }
}

/** `--tenant ID`, `[--sandbox]`, `[--domain HOST…]`, `[--mode L1|L2]`, `[--monthly N|unlimited]`. */
function synopsis(name: string, spec: OptionSpec): string {
  let text = `--${name}`;
  if (spec.type !== 'flag') {
    const placeholder =
      spec.type === 'choice'
        ? spec.choices.join('|')
        : spec.type === 'boolean'
          ? 'true|false'
          : (spec.value ?? (spec.type === 'integer' || spec.type === 'count' ? 'N' : 'VALUE'));
    const keyword = (spec.type === 'integer' || spec.type === 'count') && spec.keyword ? `|${spec.keyword}` : '';
    text += ` ${placeholder}${keyword}${spec.type === 'list' ? '…' : ''}`;
  }
  return spec.required ? text : `[${text}]`;
}

/** The `help` text, generated from the table: one line per command, then the options that need a word. */
export function usageText(commands: readonly Command[], footer: string): string {
  const lines = ['Usage: bun run cli <command> [options]   (prints JSON; exits non-zero with a message on stderr when refused)', ''];
  for (const command of commands) {
    const options = Object.entries(command.options).map(([name, spec]) => synopsis(name, spec));
    lines.push(`  ${[command.command, ...options].join(' ')}`);
    if (command.summary) lines.push(`      ${command.summary}`);
    for (const [name, spec] of Object.entries(command.options)) if (spec.help) lines.push(`      --${name}: ${spec.help}`);
  }
  return [...lines, '', footer].join('\n');
}

/** Every concrete command (`webhooks enable`, `webhooks disable`) with its table entry and verb. */
export function commandIndex(commands: readonly Command[]): Map<string, { command: Command; verb: string }> {
  const index = new Map<string, { command: Command; verb: string }>();
  for (const command of commands) {
    const words = command.command.split(' ');
    for (const verb of words.at(-1)!.split('|')) index.set([...words.slice(0, -1), verb].join(' '), { command, verb });
  }
  return index;
}
