// The load balancer of `odds cluster`: deploy/haproxy.cfg itself (the one truth of retries, health
// checks, stickiness and timeouts, the file compose.yaml mounts), with only what names Docker's
// network replaced by local addresses.

/** A local API process behind the balancer. */
export interface LocalServer {
  /** Its name in HAProxy (logs, the SERVERID cookie). */
  name: string;
  host: string;
  port: number;
}

/** What localHaproxyConfig puts in place of Docker's addresses. */
export interface LocalBalancer {
  /** Where the balancer listens. */
  host: string;
  port: number;
  servers: readonly LocalServer[];
}

/** A section header starts a line (`global`, `defaults`, `frontend http`, `resolvers docker`, ...). */
const SECTION = /^[a-z][\w-]*(\s|$)/;

/**
 * The configuration of deploy/haproxy.cfg (`committed`, its text) for processes on this machine:
 * every `bind` listens on `balancer.host:port`, the `resolvers` sections (Docker's DNS) are left out
 * with the `resolvers` and `init-addr` settings that name them, and the `server` lines of each
 * backend become one line per local server, `cookie` set to its name. Everything else is kept as
 * written, comments included.
 * @throws Error when the file has no `bind` or no `server` line (its shape changed: update this).
 */
export function localHaproxyConfig(committed: string, balancer: LocalBalancer): string {
  if (!balancer.servers.length) throw new Error('localHaproxyConfig: no server to balance');
  const out: string[] = [];
  let section = '';
  let binds = 0;
  let serverBlocks = 0;
  let serversWritten = false;
  for (const line of committed.split('\n')) {
    if (SECTION.test(line)) {
      section = line.split(/\s/)[0]!;
      serversWritten = false;
      if (section === 'resolvers') continue;
    } else if (section === 'resolvers') {
      continue;
    }
    const indent = /^\s*/.exec(line)![0];
    const words = line.trim().split(/\s+/);
    if (words[0] === 'bind') {
      binds++;
      out.push(`${indent}bind ${balancer.host}:${balancer.port}`);
    } else if (words[0] === 'default-server') {
      out.push(indent + dropSettings(words, ['resolvers', 'init-addr']).join(' '));
    } else if (words[0] === 'server') {
      if (serversWritten) continue;
      serversWritten = true;
      serverBlocks++;
      for (const server of balancer.servers) out.push(`${indent}server ${server.name} ${server.host}:${server.port} cookie ${server.name}`);
    } else {
      out.push(line);
    }
  }
  if (!binds || !serverBlocks) throw new Error('deploy/haproxy.cfg has no bind or no server line: localHaproxyConfig does not know its shape');
  return out.join('\n');
}

/** `words` without the settings named (each with its one value). */
function dropSettings(words: readonly string[], names: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (names.includes(words[i]!)) i++;
    else kept.push(words[i]!);
  }
  return kept;
}
