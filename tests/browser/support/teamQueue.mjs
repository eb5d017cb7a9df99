// A team's run queue for a browser test: a git repository with workflows committed, a bare
// clone of it as the team's remote, and a real `heddle worker` taking from the server's queue.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { heddleBinary } from './paths.mjs';

/** Runs git in `cwd` as a test author, without signing. */
function git(cwd, args) {
  return execFileSync('git', ['-c', 'user.name=Heddle Test', '-c', 'user.email=test@heddle.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  });
}

/**
 * `dir/repo` with `files` (path in the repository -> text) committed, and `dir/team.git`, a
 * bare clone of it, as the team's remote. The repository's folder and the remote.
 */
export function teamRepository(dir, files) {
  const repo = join(dir, 'repo');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  git(repo, ['init', '-q', '-b', 'main']);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-qm', 'workflows for the queue']);
  const remote = join(dir, 'team.git');
  git(dir, ['clone', '-q', '--bare', repo, remote]);
  return { repo, remote };
}

/**
 * `heddle worker --remote remote --name name --lease lease` on the run index of the server
 * whose data folder is `home`, in a process group of its own (its run's commands die with it).
 */
export function startWorker(home, remote, { name, lease = 30 }) {
  const child = spawn(heddleBinary(), ['worker', '--remote', remote, '--name', name, '--lease', String(lease)], {
    env: { ...process.env, HEDDLE_HOME: home, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk.toString()));
  child.stderr.on('data', (chunk) => (output += chunk.toString()));
  return {
    /** What it printed so far, for a failure's message. */
    output: () => output,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      process.kill(-child.pid, 'SIGKILL');
      await exited;
    },
  };
}
