// How every `odds` command ends: by a path that cannot wait on V8's worker threads.
//
// Node.js can deadlock at exit: nodejs/node#54918 ("Deadlock at process shutdown", open; narrowed
// by nodejs/node#58047 and #61963, not closed). process.exit() and the natural end of the event loop
// both dispose of the V8 platform, whose NodePlatform::Shutdown joins the V8Worker threads; a
// background compile job on one of them that needs memory waits in
// CollectionBarrier::AwaitCollectionBackground for a garbage collection only the main thread can
// run, and the main thread is the one joining. Both sleep forever. Seen in CI (issue 40) and here:
// 1 `odds serve` of 15 given SIGTERM under load, with two busy processes beside it, never ended.
//
// execve(2) replaces the whole process image: the kernel ends every thread of the old image without
// joining any, and the new image (the shell) only exits with the code. Same pid, same exit status,
// as a supervisor, `docker stop` or a parent's `wait` sees it. Remove this module once a Node.js
// release in our `engines` range has the fix: process.exit(code) then does the same.

/** The program the process becomes to end with a code: POSIX guarantees a shell here. */
const SHELL = '/bin/sh';

/** The code the process is leaving with, once leaveProcess has been called. */
let leavingWith: number | undefined;

/**
 * Ends the process with `code`: runs the `exit` listeners, as process.exit does (pino flushes its
 * log there), lets stdout and stderr take what was written to them, then replaces the process. A
 * pipe takes writes asynchronously once it is full (`odds simulate --stdout | ...`), and execve would
 * drop what is still queued: the wait is as long as the reader needs, or at most `flushWithinMs`
 * where the process must end regardless (a shutdown past its deadline). The caller has closed what
 * it owns (servers, stores, the bus). A later call keeps the first code and may only bound the wait.
 */
export function leaveProcess(code: number, flushWithinMs?: number): void {
  if (leavingWith === undefined) {
    leavingWith = code;
    process.exitCode = code;
    process.emit('exit', code);
    const drained = [process.stdout, process.stderr].map(
      (stream) => new Promise<void>((resolve) => (stream.writableLength > 0 ? stream.write('', () => resolve()) : resolve())),
    );
    void Promise.all(drained).then(() => replaceProcess(code));
  }
  if (flushWithinMs !== undefined) setTimeout(() => replaceProcess(leavingWith ?? code), flushWithinMs);
}

/** Becomes a shell that exits with `code`; where execve is missing (Windows) or refused (a sandbox), process.exit. */
function replaceProcess(code: number): never {
  if (typeof process.execve === 'function') {
    try {
      process.execve(SHELL, ['sh', '-c', `exit ${code & 0xff}`], {});
    } catch {
      // execve refused: the exit below may meet the deadlock, but it is all that is left.
    }
  }
  process.exit(code);
}
