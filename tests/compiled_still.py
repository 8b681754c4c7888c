"""The last step of `make test`: wherever a C compiler is at hand, the checkout must still
run on its compiled kernels after the whole suite (a build that deleted
box_gin/_speedups*.so would leave the kit 4x slower on best_melds without a word)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from hatch_build import _compiler  # noqa: E402


def main() -> int:
    env = {k: v for k, v in os.environ.items() if k != "BOX_GIN_PURE"}
    done = subprocess.run([sys.executable, "-c",
                           "import box_gin.kernels as k; print(k.IMPLEMENTATION)"],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    used = done.stdout.strip() or done.stderr.strip()[-300:]
    if _compiler() is None:
        print(f"no C compiler here: the kit runs on its {used} kernels, as it should")
        return 0
    if used != "compiled":
        print(f"FAILED: a C compiler is here, but after the tests the kit runs on {used!r} "
              "kernels: something deleted box_gin/_speedups*.so (reinstall: "
              "pip install -e .)", file=sys.stderr)
        return 1
    print("the kit still runs on its compiled kernels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
