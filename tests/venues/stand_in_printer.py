"""A stand-in for a network ESC/POS receipt printer: a TCP server on 127.0.0.1 that keeps every byte it reads and
answers the real-time status request (DLE EOT 1) as a printer does: online, offline, or never (a printer that does
not answer)."""

from __future__ import annotations

import socket
import threading

STATUS = b"\x10\x04\x01"
ONLINE, OFFLINE = b"\x12", b"\x1a"  # bits 1 and 4 always set; bit 3: offline


class StandInPrinter:
    def __init__(self, mode: str = "online") -> None:
        self.mode = mode  # "online", "offline" or "silent"
        self.jobs: list[bytes] = []
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.address = f"127.0.0.1:{self.port}"
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while not self.stopping.is_set():
            try:
                connection, _peer = self.server.accept()
            except TimeoutError:
                continue
            with connection:
                self.job(connection)

    def job(self, connection: socket.socket) -> None:
        connection.settimeout(10)
        received, answered = b"", 0
        while True:
            try:
                chunk = connection.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            received += chunk
            asked = received.count(STATUS)
            while answered < asked and self.mode != "silent":
                connection.sendall(ONLINE if self.mode == "online" else OFFLINE)
                answered += 1
        self.jobs.append(received)

    def printed(self, jobs: int = 1) -> bytes:
        """The last job's bytes without the status requests, once `jobs` jobs have ended (a job ends when the
        server closes its connection, a moment after the answer)."""
        for _ in range(200):
            if len(self.jobs) >= jobs:
                return self.jobs[-1].replace(STATUS, b"")
            self.stopping.wait(0.01)
        raise AssertionError(f"{len(self.jobs)} jobs, not {jobs}")

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        self.server.close()
