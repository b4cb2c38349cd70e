import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

// Which process holds the far end of a loopback TCP connection, from the kernel's own tables
// (Linux /proc): the honest way to tell which of several server processes took a connection,
// with nothing added to the server for it.

const hexPort = (addr: string) => parseInt(addr.split(':')[1] ?? '', 16);

/** The inode of the IPv4 socket bound to localPort and connected to remotePort, if one is open. */
function socketInode(localPort: number, remotePort: number): string | undefined {
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    if (hexPort(f[1]!) === localPort && hexPort(f[2]!) === remotePort && f[9] !== '0') return f[9];
  }
  return undefined;
}

function holds(pid: number, inode: string): boolean {
  const want = `socket:[${inode}]`;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === want;
    } catch {
      return false;
    }
  });
}

/** Among `pids`, the one holding the socket on `localPort` connected to `remotePort`. */
export function socketOwner(localPort: number, remotePort: number, pids: number[]): number | undefined {
  const inode = socketInode(localPort, remotePort);
  return inode === undefined ? undefined : pids.find((pid) => holds(pid, inode));
}

/** Direct children of `pid` whose command line contains `marker`. */
export function childProcesses(pid: number, marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (ppid === pid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) out.push(Number(name));
    } catch { /* exited meanwhile */ }
  }
  return out;
}
