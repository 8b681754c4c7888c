"""Escape the limits: a CPU-burning subprocess started with subprocess (python -c), in a
new session, which would keep the machine busy after the run."""
import subprocess
import sys

try:
    subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    STARTED = True
except OSError:
    STARTED = False


def is_set(cards):
    return STARTED
