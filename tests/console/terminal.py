"""Running the local table as a person does: `python -m bot ...` in a folder of its own,
with lines piped in, or typed at a terminal (a pseudo-terminal, so line editing is on)."""

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).parents[2]
PROMPT = b"table> "
PATIENCE = 120
"""Seconds to wait for the table before giving up on it (a hang, not a measure)."""


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "LOCAL_TABLE_DB")}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def console(args: list[str], cwd: Path, stdin: str = "", **env: str):
    """Run ``python -m bot console ARGS`` in ``cwd``; the finished process."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", *args],
        cwd=cwd, env=environment(**env), input=stdin, capture_output=True, text=True,
        timeout=PATIENCE,
    )  # fmt: skip


class Terminal:
    """The table on a pseudo-terminal: ``type`` keys, ``screen`` is all it wrote."""

    def __init__(self, cwd: Path, *args: str) -> None:
        master, slave = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "console", *args],
            stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
            env=environment(TERM="xterm"),
        )  # fmt: skip
        os.close(slave)
        self.master = master
        self.output = b""
        self.wait_for_prompt()

    def type(self, keys: bytes) -> None:
        """Type ``keys`` (ending with Enter, ``\\r``) and wait for the next prompt."""
        prompts = self.output.count(PROMPT)
        os.write(self.master, keys)
        self.wait_for_prompt(prompts + 1)

    def wait_for_prompt(self, count: int = 1) -> None:
        give_up = time.monotonic() + PATIENCE
        while self.output.count(PROMPT) < count:
            assert time.monotonic() < give_up, self.screen
            ready, _, _ = select.select([self.master], [], [], 1)
            if ready:
                self.output += os.read(self.master, 65536)

    def quit(self) -> None:
        os.write(self.master, b"quit\r")
        self.process.wait(PATIENCE)
        os.close(self.master)

    @property
    def screen(self) -> str:
        return self.output.decode("utf-8", errors="replace")
