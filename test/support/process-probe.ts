import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Milliseconds another process's main thread has spent running on a CPU (Linux'
 * /proc/<pid>/schedstat, nanosecond resolution), or undefined where the kernel does not say.
 * Time the process was ready but waiting for a CPU is not counted: on a loaded machine a
 * timing check on this clock measures the process, not the scheduler.
 */
export function mainThreadCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const [running] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/);
    const nanoseconds = Number(running);
    return Number.isFinite(nanoseconds) ? nanoseconds / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The local ports of a process's TCP sockets (Linux: its /proc/<pid>/fd socket inodes looked up
 * in /proc/net/tcp and tcp6), or undefined where /proc does not say. A server that records each
 * request's remote port can then tell which process sent it, however late it read the request.
 */
export function tcpPortsOf(pid: number | undefined): Set<number> | undefined {
  if (pid === undefined) return undefined;
  try {
    const inodes = new Set<string>();
    for (const entry of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${entry}`))?.[1];
        if (inode) inodes.add(inode);
      } catch {
        // closed meanwhile
      }
    }
    const ports = new Set<number>();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      let text: string;
      try {
        text = readFileSync(table, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.trim().split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        if (inodes.has(fields[9] ?? '')) ports.add(Number.parseInt(fields[1]!.split(':').at(-1)!, 16));
      }
    }
    return ports;
  } catch {
    return undefined;
  }
}

/** The ids of a process's child processes (Linux: each /proc/<pid>/stat's parent id), none where /proc does not say. */
export function childProcessesOf(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  const children: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  for (const entry of entries) {
    try {
      // pid (comm) state ppid …: the command may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return children;
}
