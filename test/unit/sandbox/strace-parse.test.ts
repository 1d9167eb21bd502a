import { describe, expect, it } from 'vitest';
import { parseSockaddr, parseStraceLog } from '../../../src/sandbox/strace-parse.js';

const BWRAP = '/usr/bin/bwrap';
const ctx = {
  sandboxExecutable: BWRAP,
  cwd: '/home/skill/work',
  canaryPaths: new Map([['/home/skill/.ssh/id_rsa', 'ssh-private-key']]),
};

// Shaped like real `strace -f --decode-pids=pidns` output of a bwrap run (pids are host pids).
const LOG = [
  '100  execve("/usr/bin/setpriv", ["setpriv", "--reuid", "65534", "--", "/usr/bin/bwrap"], 0x7ffc /* 3 vars */) = 0',
  '100  openat(AT_FDCWD, "/etc/passwd", O_RDONLY|O_CLOEXEC) = 3',
  '100  execve("/usr/bin/bwrap", ["/usr/bin/bwrap", "--unshare-all", "--", "/bin/sh", "run.sh"], 0x7ffd /* 3 vars */) = 0',
  '100  clone(child_stack=NULL, flags=CLONE_NEWNS|CLONE_NEWPID|CLONE_NEWUSER|SIGCHLD) = 101',
  '101  openat(AT_FDCWD, "/home/skill/.ssh/id_rsa", O_RDONLY|O_PATH) = 5',
  "101  clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD, child_tidptr=0x7f) = 2 /* 102 in strace's PID NS */",
  '102  execve("/bin/sh", ["/bin/sh", "run.sh"], 0x5564 /* 2 vars */) = 0',
  '102  vfork( <unfinished ...>',
  '103  execve("/usr/bin/cat", ["cat", "/home/skill/.ssh/id_rsa"], 0x55 /* 2 vars */ <unfinished ...>',
  "102  <... vfork resumed>)              = 3 /* 103 in strace's PID NS */",
  '103  <... execve resumed>)             = 0',
  '103  openat(AT_FDCWD, "/home/skill/.ssh/id_rsa", O_RDONLY) = 3',
  '103  +++ exited with 0 +++',
  "102  clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 4 /* 104 in strace's PID NS */",
  '104  execve("/usr/bin/python3", ["python3", "-c", "x"], 0x55 /* 2 vars */) = 0',
  "104  clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, child_tid=0x7f}, 88) = 5 /* 105 in strace's PID NS */",
  '105  socket(AF_INET, SOCK_DGRAM|SOCK_CLOEXEC|SOCK_NONBLOCK, IPPROTO_IP) = 7',
  '105  connect(7, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
  '105  sendto(7, "\\364\\17\\1\\0\\0\\1\\0\\0\\0\\0\\0\\0\\3abc\\7example\\3com\\0\\0\\1\\0\\1", 33, MSG_NOSIGNAL, NULL, 0) = 33',
  '105  +++ exited with 0 +++',
  '104  socket(AF_INET6, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_IP) = 3',
  '104  connect(3, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2001:db8::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ENETUNREACH (Network is unreachable)',
  '104  connect(4, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT (No such file or directory)',
  '104  socket(AF_INET, SOCK_STREAM, IPPROTO_TCP) = 5',
  '104  connect(5, {sa_family=AF_INET, sin_port=htons(8443), sin_addr=inet_addr("10.1.2.3")}, 16) = -1 EINPROGRESS (Operation now in progress)',
  '104  sendto(5, "POST / HTTP/1.1\\r\\n"..., 512, 0, NULL, 0) = 512',
  '104  sendmsg(6, {msg_name={sa_family=AF_INET, sin_port=htons(9999), sin_addr=inet_addr("10.9.9.9")}, msg_namelen=16, msg_iov=[{iov_base="ab", iov_len=2}, {iov_base="cd", iov_len=2}], msg_iovlen=2, msg_controllen=0, msg_flags=0}, 0) = -1 ENETUNREACH (Network is unreachable)',
  '104  openat(AT_FDCWD, ".env", O_RDONLY|O_CLOEXEC) = 3',
  '104  openat(AT_FDCWD, "/home/skill/.aws/credentials", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 EACCES (Permission denied)',
  '104  openat(AT_FDCWD, "/usr/lib/python3.11/os.py", O_RDONLY) = 3',
  '104  +++ killed by SIGKILL +++',
  '102  exit_group(3)                     = ?',
  '102  +++ exited with 3 +++',
  '101  +++ exited with 3 +++',
  '100  +++ exited with 3 +++',
  '106  execve("/bin/truncated", ["x"',
].join('\n');

describe('parseStraceLog', () => {
  const evidence = parseStraceLog(LOG, ctx);

  it('keeps only processes inside the sandbox, with argv, parent and exit', () => {
    expect(evidence.processes.map((p) => p.pid)).toEqual([102, 103, 104]);
    const [sh, cat, python] = evidence.processes;
    expect(sh).toMatchObject({
      ppid: 101,
      executable: '/bin/sh',
      argv: ['/bin/sh', 'run.sh'],
      exit: { code: 3, signal: null },
    });
    expect(cat).toMatchObject({
      ppid: 102,
      argv: ['cat', '/home/skill/.ssh/id_rsa'],
      exit: { code: 0, signal: null },
    });
    expect(python).toMatchObject({ ppid: 102, exit: { code: null, signal: 'SIGKILL' } });
  });

  it('merges unfinished and resumed lines and folds threads into their process', () => {
    expect(evidence.processes.find((p) => p.pid === 105)).toBeUndefined();
    expect(evidence.dnsQueries).toEqual([{ name: 'abc.example.com', type: 'A', source: 'strace', pid: 104 }]);
  });

  it('records network attempts with destination, protocol, outcome and first payload bytes', () => {
    const byPort = new Map(evidence.attempts.map((a) => [a.port, a]));
    expect(byPort.get(443)).toMatchObject({
      family: 'AF_INET6',
      address: '2001:db8::1',
      protocol: 'tcp',
      blocked: true,
      error: 'ENETUNREACH',
    });
    expect(byPort.get(8443)).toMatchObject({
      address: '10.1.2.3',
      protocol: 'tcp',
      blocked: false,
      payload: 'POST / HTTP/1.1\r\n',
    });
    expect(byPort.get(9999)).toMatchObject({
      syscall: 'sendmsg',
      address: '10.9.9.9',
      blocked: true,
      payload: 'abcd',
    });
    expect(byPort.get(53)).toMatchObject({ protocol: 'udp', address: '127.0.0.1' });
    // libc's nscd probe is plumbing, not an attempt.
    expect(evidence.attempts.some((a) => a.family === 'AF_UNIX')).toBe(false);
  });

  it('reports sensitive opens by sandboxed processes only, resolving relative paths against the cwd', () => {
    const reads = evidence.sensitiveReads.map((r) => [r.pid, r.path, r.rule, r.canary, r.write, r.error]);
    expect(reads).toEqual([
      [103, '/home/skill/.ssh/id_rsa', 'ssh-key', 'ssh-private-key', false, null],
      [104, '/home/skill/work/.env', 'dotenv', null, false, null],
      [104, '/home/skill/.aws/credentials', 'aws-credentials', null, true, 'EACCES'],
    ]);
    expect(evidence.sensitiveReads[0]!.argv).toEqual(['cat', '/home/skill/.ssh/id_rsa']);
  });

  it('counts everything when no sandbox executable is named', () => {
    const all = parseStraceLog(LOG, { ...ctx, sandboxExecutable: null });
    expect(all.processes.map((p) => p.pid)).toContain(100);
  });

  it('survives garbage lines', () => {
    const weird = parseStraceLog(
      'not a line\n12 <... read resumed>) = 1\n13 --- SIGCHLD {} ---\n\u0000\u0001',
      ctx,
    );
    expect(weird.processes).toEqual([]);
  });
});

describe('parseSockaddr', () => {
  it('reads abstract unix socket names', () => {
    expect(parseSockaddr('{sa_family=AF_UNIX, sun_path=@"/tmp/.X11-unix/X0"}')).toEqual({
      family: 'AF_UNIX',
      address: '@/tmp/.X11-unix/X0',
      port: null,
    });
  });
});
