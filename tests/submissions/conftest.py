"""The files here are submissions for the checker to grade, never tests to collect."""

collect_ignore_glob = ["*"]
