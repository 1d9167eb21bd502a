#!/usr/bin/env python3
"""Start one or more dev servers, wait until their ports accept connections, run a command, then stop them."""
import argparse
import socket
import subprocess
import sys
import time


def wait_for_port(port: int, timeout: float) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection(("localhost", port), timeout=1):
                return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"server on port {port} did not start within {timeout}s")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", action="append", required=True, help="shell command that starts a server")
    ap.add_argument("--port", action="append", type=int, required=True)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if len(a.server) != len(a.port):
        ap.error("give one --port per --server")
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    procs = []
    try:
        for server, port in zip(a.server, a.port):
            # the server command is the user's own dev command, e.g. "npm run dev"
            procs.append(subprocess.Popen(server, shell=True))
            wait_for_port(port, a.timeout)
        return subprocess.run(cmd).returncode
    finally:
        for p in procs:
            p.terminate()
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()


if __name__ == "__main__":
    sys.exit(main())
