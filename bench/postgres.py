"""A throwaway PostgreSQL server for bench/run.py: Debian's binaries, a data directory in a
temporary folder, a free port on loopback, durable (fsync on, as a production database)."""
import glob
import os
import pathlib
import shutil
import socket
import subprocess
import time


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TemporaryPostgres:
    """`with TemporaryPostgres(directory) as url:` — a running server and its postgres:// URL.
    As root, the server runs as the `postgres` user (initdb refuses root)."""

    def __init__(self, directory):
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise RuntimeError("PostgreSQL is missing: apt-get install postgresql")
        self.bin = pathlib.Path(found[-1]).parent
        self.data = pathlib.Path(directory) / "pgdata"
        self.port = _free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *command):
        subprocess.run(self.as_user + [str(self.bin / command[0]), *command[1:]], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def __enter__(self):
        self.data.mkdir(parents=True)
        if self.as_user:
            shutil.chown(self.data, "postgres", "postgres")
            shutil.chown(self.data.parent, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "cognate", "--auth=trust")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.data / "log"), "-w", "-o",
                  f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c max_connections=200", "start")
        time.sleep(0.5)
        return f"postgres://cognate@127.0.0.1:{self.port}/postgres"

    def __exit__(self, *exc):
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        except subprocess.CalledProcessError:
            pass
