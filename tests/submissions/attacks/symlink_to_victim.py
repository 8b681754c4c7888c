"""Harm another student: this submission is a symlink to the victim's notebook (the test
replaces this file by the link LINK_TO), to be graded as its own."""
LINK_TO = "victim/05_the_three_player_game.ipynb"
