"""Keeps the box in the box after it loses (swapping captain and sitter): breaks next_roles."""

BREAKS = ["next_roles"]


def next_roles(roles, scorer):
    if scorer is None:
        return dict(roles)
    return {"box": roles["box"], "captain": roles["sitter"], "sitter": roles["captain"]}
