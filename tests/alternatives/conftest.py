"""Right answers written differently, for the mutation run (box_gin/tools/mutate.py):
files to read and mutate, never tests to collect."""

collect_ignore_glob = ["*"]
