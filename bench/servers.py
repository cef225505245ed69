"""Several app servers behind one proxy, on this machine (issue 24, docs/operations.md).

    python bench/servers.py --servers 2 --port 8080     # then open http://127.0.0.1:8080/

starts N gunicorn processes (``clubapp.wsgi``, one port each, from 8101 up) on the
``DATABASE_URL`` of the environment, and a small round-robin HTTP proxy in front of
them that hands each request to the next server in turn and says which one answered
(``X-Served-By: 127.0.0.1:8101``). The app keeps no state of its own between requests:
sessions and login lockouts are rows of the shared database, so a request may land on
any server. ``clubapp/core/tests/test_servers.py`` uses the same pieces; a room's
production runs nginx in the proxy's place (docs/operations.md: "Several app servers").
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import itertools
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
#: request headers not passed on (hop-by-hop), the connection is the proxy's own
HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(port: int, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"no server came up on port {port}") from None
            time.sleep(0.1)


def start_gunicorn(
    port: int,
    env: Mapping[str, str],
    workers: int = 1,
    threads: int = 1,
    log: IO[bytes] | None = None,
) -> subprocess.Popen[bytes]:
    """``gunicorn clubapp.wsgi`` on ``port`` (``threads`` > 1: the gthread worker); its
    output to ``log`` when given."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [
        str(gunicorn) if gunicorn.exists() else "gunicorn",
        "clubapp.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--log-level",
        "warning",
    ]
    return subprocess.Popen(command, cwd=ROOT, env={**os.environ, **env}, stdout=log, stderr=log)


class Proxy(ThreadingHTTPServer):
    """Hands each request to the next backend in turn (round robin)."""

    daemon_threads = True

    def __init__(self, port: int, backends: list[int]) -> None:
        self.backends = itertools.cycle(backends)
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", port), _Forward)

    def next_backend(self) -> int:
        with self.lock:
            return next(self.backends)


class _Forward(BaseHTTPRequestHandler):
    server: Proxy
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as nginx's default ``tcp_nodelay on``: the headers and the body go in
    # two writes, and without it the body waits for the phone's delayed ACK (~40 ms on
    # every page larger than a few packets: the 8 December two-server run's preview p50
    # 78.8 ms against 34.5 ms through no proxy).
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        pass

    def _forward(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        port = self.server.next_backend()
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        headers["X-Forwarded-For"] = self.client_address[0]
        upstream = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            upstream.request(self.command, self.path, body=body, headers=headers)
            answer = upstream.getresponse()
            payload = answer.read()
            self.send_response(answer.status, answer.reason)
            for key, value in answer.getheaders():  # every Set-Cookie, each on its own
                if key.lower() not in HOP and key.lower() != "content-length":
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("X-Served-By", f"127.0.0.1:{port}")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(payload)
        finally:
            upstream.close()

    do_GET = do_POST = do_HEAD = _forward


@contextlib.contextmanager
def servers(
    count: int,
    env: Mapping[str, str],
    port: int = 0,
    workers: int = 1,
    threads: int = 1,
    log: IO[bytes] | None = None,
) -> Iterator[tuple[int, list[int]]]:
    """``with servers(2, env) as (proxy_port, backend_ports): …``: all stopped after."""
    ports = [free_port() for _ in range(count)]
    processes = [start_gunicorn(p, env, workers, threads, log) for p in ports]
    proxy = None
    try:
        for p in ports:
            wait_until_up(p)
        proxy = Proxy(port, ports)
        threading.Thread(target=proxy.serve_forever, daemon=True).start()
        yield proxy.server_address[1], ports
    finally:
        if proxy is not None:
            proxy.shutdown()
            proxy.server_close()
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=int, default=2, help="how many app processes")
    parser.add_argument("--port", type=int, default=8080, help="the proxy's port")
    options = parser.parse_args()
    with servers(options.servers, {}, options.port) as (port, backends):
        print(f"proxy http://127.0.0.1:{port}/ -> " + ", ".join(map(str, backends)))
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
