"""Keeps everyone in place when the box wins: breaks next_roles."""

BREAKS = ["next_roles"]


def next_roles(roles, scorer):
    if scorer == "captain":
        return {"box": roles["captain"], "captain": roles["sitter"], "sitter": roles["box"]}
    return dict(roles)
