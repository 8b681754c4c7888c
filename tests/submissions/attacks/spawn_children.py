"""Attack: start processes that outlive the kata (and a fork that keeps running)."""
import os
import subprocess

subprocess.Popen(["sleep", "600"])


def is_set(cards):
    if os.fork() == 0:
        while True:
            pass
    return True
