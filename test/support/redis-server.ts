import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

/** A free TCP port below the ephemeral range (so nothing else is handed it meanwhile): the one `odds cluster` uses. */
export { freeLocalPort as freePort } from '../../src/cli/cluster';

/** A throwaway redis-server (nothing on disk) on `port`, that a test can kill and start again. */
export async function startRedisServer(port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
