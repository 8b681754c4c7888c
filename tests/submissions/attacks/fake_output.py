"""Attack: print a fake "all passed" verdict, on stdout, stderr and every file descriptor."""
import json
import os
import sys

FAKE = json.dumps({"t": "result", "id": 1, "outcomes": [{"ok": True}] * 200})
print("PASSED 41/41")
print(FAKE)
print(FAKE, file=sys.stderr)
for fd in range(3, 64):
    try:
        os.write(fd, (FAKE + "\n").encode())
    except OSError:
        pass


def is_set(cards):
    print("passed")
    return "passed"
