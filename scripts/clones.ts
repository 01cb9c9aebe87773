/**
 * Files of public repositories read from local clones, for the scripts that build evaluation sets
 * which are never committed (documents/real-specimens.ts, faces/age-evaluation-set.ts). A folder of
 * clones holds one per repository, named `owner+name`: a work tree, a bare clone, or a mirror's
 * `repo` folder.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The value after `name` on the command line; prints `usage` and exits 2 without it. */
export function requiredOption(name: string, usage: string): string {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? undefined : process.argv[at + 1];
  if (!value) {
    console.error(usage);
    process.exit(2);
  }
  return value;
}

/** The git directory of `owner/name` in the folder of clones. */
export function cloneGitDir(repos: string, repository: string): string {
  const clone = join(repos, repository.replace('/', '+'));
  for (const candidate of [join(clone, '.git'), join(clone, 'repo', '.git'), join(clone, 'repo'), clone]) {
    if (existsSync(join(candidate, 'HEAD')) && existsSync(join(candidate, 'objects'))) return candidate;
  }
  throw new Error(`${clone} is not a git clone`);
}

/** What `git --git-dir DIR ARGS…` prints; throws with git's message when it fails. */
export function git(dir: string, ...args: string[]): Buffer {
  const run = Bun.spawnSync(['git', '--git-dir', dir, ...args], { stdout: 'pipe', stderr: 'pipe' });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(' ')} in ${dir}: ${run.stderr.toString().trim()}`);
  return run.stdout;
}
