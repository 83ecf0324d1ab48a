"""Waiting for a child process by the CPU time it has used, not by the clock.

A test that interrupts a command "once it is busy" must not guess with ``time.sleep``: on a
loaded machine (CI, ``pytest -n auto`` on two cores) start-up can take longer than any
fixed pause, and the signal then lands before the command installed its handler.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path


def wait_for_cpu(proc: subprocess.Popen, seconds: float, timeout: float = 60.0) -> None:
    """Return once ``proc`` has used ``seconds`` of CPU time (or has ended, or ``timeout``).

    Args:
        proc: The child process.
        seconds: CPU seconds (user + system) it must have used: its start-up plus a margin.
        timeout: Wall-clock seconds to wait at most.
    """
    stat = Path(f"/proc/{proc.pid}/stat")
    if not stat.exists():  # no procfs (macOS): fall back to a generous pause
        time.sleep(seconds * 3)
        return
    tick = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            # Fields after the command name: state is field 3, utime and stime 14 and 15.
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # it has just ended
            return
        if (int(fields[11]) + int(fields[12])) / tick >= seconds:
            return
        time.sleep(0.05)
