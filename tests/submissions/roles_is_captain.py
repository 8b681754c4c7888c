"""Compares the scorer with `is` for the captain, `==` for the box: breaks next_roles."""

BREAKS = ["next_roles"]


def next_roles(roles, scorer):
    new = dict(roles)
    if scorer == "box":
        new["captain"], new["sitter"] = roles["sitter"], roles["captain"]
    elif scorer is "captain":  # noqa: F632
        new = {"box": roles["captain"], "captain": roles["sitter"], "sitter": roles["box"]}
    return new
