"""``--dask ADDRESS``: the tournament's games on an existing Dask cluster.

Each task is one chunk of the schedule, played by :func:`~box_gin.tournament.run.
play_chunk` on a worker exactly as a local worker plays it (the submissions' bots in
the worker's own sandbox); the results come back in schedule order, so the same seed
gives the same results however the cluster spreads the work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .run import Entrant, Runner, Settings, play_chunk


def dask_runner(address: Any) -> Runner:
    """A runner that plays each chunk as a task on the cluster at ``address`` (or on a
    ``distributed.Client`` given itself)."""

    def runner(entrants: list[Entrant], parts: list[Any], settings: Settings,
               done: Callable[[int], None] | None = None) -> list[Any]:
        from distributed import Client

        client = address if isinstance(address, Client) else Client(address)  # type: ignore[no-untyped-call]
        try:
            futures = [client.submit(play_chunk, entrants, part, settings, pure=False)
                       for part in parts]
            results = list(client.gather(futures))  # type: ignore[no-untyped-call]
            if done is not None:
                for part in parts:
                    done(len(part))
            return results
        finally:
            if client is not address:
                client.close()  # type: ignore[no-untyped-call]

    return runner
