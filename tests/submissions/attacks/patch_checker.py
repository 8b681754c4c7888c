"""Attack: patch the checker, json and the box_gin package so every answer looks right."""
import builtins
import json
import sys

try:
    import box_gin.checker.grader as grader  # not importable in the child

    grader.judge_cases = lambda *args, **kwargs: []
except ImportError:
    pass
json.dumps = lambda *args, **kwargs: "{\"t\": \"result\", \"outcomes\": []}"
json.loads = lambda *args, **kwargs: {}
sys.modules["box_gin.katas"] = None
builtins.isinstance = lambda obj, cls: True


def is_set(cards):
    return True


def card_value(card):
    return 10
