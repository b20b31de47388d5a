"""Who plays the chunks: this process, a process pool, or a dask.distributed cluster.

Each backend yields the chunks **in game order**: a chunk that finishes early waits in a
small buffer until the chunks before it are in. At most a few chunks per worker are held,
so memory stays flat however many games are played. A chunk whose worker dies (a worker
process of the pool, or dask's ``KilledWorker``) is played again, up to
:data:`MAX_ATTEMPTS` times; a game depends on its number alone, so the rerun gives the same
rows.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

from ..errors import CardlabError, OptionError, brief
from ..words import plural
from ..workers import WorkerPool
from .output import Destination, Part, play_part
from .rows import fault_setting
from .spec import Spec

MAX_ATTEMPTS = 3  # plays of one chunk before the run gives up on it
AHEAD = 2  # chunks held per worker: in flight, or finished and waiting for those before


def cpu_count() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _gave_up(spec: Spec, index: int, why: str) -> CardlabError:
    first, count = spec.chunks()[index]
    return CardlabError(f"games {first} to {first + count - 1} (chunk {index + 1}): {why} "
                        f"{plural(MAX_ATTEMPTS, 'time')}; giving up")


class Serial:
    """Every chunk in this process, one after another."""

    reruns = 0

    def __init__(self, spec: Spec) -> None:
        self.spec = spec

    def chunks(self, dest: Destination) -> Iterator[Part]:
        for index in range(len(self.spec.chunks())):
            yield play_part(self.spec, index, dest)

    def finished(self) -> list[Part]:
        """Chunks done but not yet yielded (none here)."""
        return []

    def close(self, now: bool = True) -> None:
        pass


class Pool:
    """Chunks on ``workers`` worker processes of cardlab's own (cardlab/workers.py): each
    plays one chunk at a time, and a worker that dies loses that chunk alone."""

    def __init__(self, spec: Spec, workers: int) -> None:
        self.spec, self.workers = spec, workers
        self.fault = fault_setting()
        self.reruns = 0
        self.done: dict[int, Part] = {}
        self.pool: WorkerPool | None = None

    def chunks(self, dest: Destination) -> Iterator[Part]:
        total = len(self.spec.chunks())
        deaths = [0] * total  # times a chunk's worker died playing it
        todo = list(range(total - 1, -1, -1))  # a stack: the next chunk to start is last
        pool = self.pool = WorkerPool(self.workers)
        held = self.workers * AHEAD  # chunks in flight or waiting to be yielded, at most
        following = 0  # the next chunk to yield

        def start() -> None:
            # (the next chunk to yield always starts: the buffer may be full of later ones)
            while todo and pool.free() and (pool.busy() + len(self.done) < held or
                                            todo[-1] == following):
                index = todo.pop()
                pool.submit(index, play_part, self.spec, index, dest, self.fault)

        while following < total:
            start()
            for outcome in pool.wait():
                index = outcome.tag
                if not outcome.died:
                    self.done[index] = outcome.value
                    continue
                deaths[index] += 1
                if deaths[index] >= MAX_ATTEMPTS:
                    raise _gave_up(self.spec, index, "its worker process died")
                self.reruns += 1
                todo.append(index)
                todo.sort(reverse=True)
            start()  # the workers go on while this process takes the finished chunks (and
            # again at the top, once they are taken and the buffer has room)
            while following in self.done:
                yield self.done.pop(following)
                following += 1

    def finished(self) -> list[Part]:
        return [self.done[i] for i in sorted(self.done)]

    def close(self, now: bool = True) -> None:
        """Stop the workers; ``now``: at once, without waiting for the chunks in flight (an
        interrupted or failed run). ``now=False`` once every chunk is in: the idle workers
        are told to exit."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.close(now)


PIP_SCALE = "pip install 'cardlab[scale]'"


def import_distributed() -> Any:
    """``dask.distributed``, or a ``CardlabError`` saying how to install it."""
    try:
        import dask.distributed as distributed
    except ImportError as err:
        raise CardlabError(f"--scheduler needs dask.distributed, which is not installed "
                           f"({err}); install it with: {PIP_SCALE}") from None
    return distributed


MAX_CONNECT_TIMEOUT = 3600.0  # seconds: an hour; a longer wait is a mistake, not a plan


def check_connect_timeout(timeout: object) -> float:
    """``--connect-timeout``: a finite number of seconds above 0, at most
    :data:`MAX_CONNECT_TIMEOUT`; else an :class:`~cardlab.errors.OptionError`.

    >>> check_connect_timeout(2)
    2.0
    >>> check_connect_timeout(float("inf"))
    Traceback (most recent call last):
        ...
    cardlab.errors.OptionError: --connect-timeout is a number of seconds above 0 and at ...
    """
    number = timeout if isinstance(timeout, (int, float)) and \
        not isinstance(timeout, bool) else None
    if number is None or not 0 < number <= MAX_CONNECT_TIMEOUT:  # False for nan too
        raise OptionError(f"--connect-timeout is a number of seconds above 0 and at most "
                          f"{MAX_CONNECT_TIMEOUT:g}, not {brief(timeout)}")
    return float(number)


def check_address(address: str) -> None:
    """Refuse, before any connection, an address dask could not even try to reach: no port,
    a port out of range, a scheme dask does not know (or lacks the package for).

    dask's ``Client`` given such an address raises without closing itself, and its
    finalizer prints a traceback some seconds later; checked here, no client is made.
    """
    from distributed.comm.addressing import get_address_host_port, parse_address
    from distributed.comm.registry import get_backend

    try:
        scheme, _ = parse_address(address, strict=False)
        get_backend(scheme)
        if scheme != "inproc":  # this process's own scheduler: no host or port
            _, port = get_address_host_port(address)
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not between 1 and 65535")
    except (ValueError, ImportError) as err:  # ucx: a known scheme, a missing package
        why = " ".join(str(err).split()) or type(err).__name__
        raise OptionError(f"--scheduler {brief(address)} is not a dask scheduler's address, "
                          f"such as tcp://10.0.0.5:8786 ({why})") from None


def connect(address: str, timeout: float) -> Any:
    """A ``dask.distributed.Client`` of the scheduler at ``address``, or a ``CardlabError``."""
    timeout = check_connect_timeout(timeout)
    distributed = import_distributed()
    check_address(address)

    class Client(distributed.Client):  # type: ignore[misc,name-defined]
        async def _start(self, *args: Any, **kwargs: Any) -> Any:
            try:
                return await super()._start(*args, **kwargs)
            except Exception:
                # dask closes a client that failed to start only after an OSError or an
                # ImportError; after any other (a host name too long for DNS, no in-process
                # scheduler) its finalizer tries, times out and prints a traceback.
                await self._close(fast=True)
                raise

    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except Exception as err:  # noqa: BLE001 - whatever dask raises, one line naming it
        why = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise CardlabError(f"cannot reach the dask scheduler at {brief(address)}: {why}") from None


class Dask:
    """Chunks as tasks of a ``dask.distributed.Client`` (cardlab must be installed on every
    worker, at the same version)."""

    def __init__(self, spec: Spec, client: Any) -> None:
        self.spec, self.client = spec, client
        self.fault = fault_setting()
        self.reruns = 0
        self.done: dict[int, Part] = {}
        self.running: dict[Any, int] = {}

    def _workers(self) -> int:
        try:
            info = self.client.scheduler_info()
            return max(1, sum(w.get("nthreads", 1) for w in info["workers"].values()))
        except Exception:  # noqa: BLE001 - the count only sizes the window
            return 1

    def chunks(self, dest: Destination) -> Iterator[Part]:
        distributed = import_distributed()
        total = len(self.spec.chunks())
        attempts = [0] * total
        todo = list(range(total - 1, -1, -1))
        following = 0
        window = self._workers() * AHEAD
        queue = distributed.as_completed(loop=self.client.loop)
        token = os.urandom(6).hex()

        def submit(index: int) -> None:
            attempts[index] += 1
            future = self.client.submit(play_part, self.spec, index, dest, self.fault,
                                        key=f"cardlab-chunk-{token}-{index}-{attempts[index]}",
                                        pure=False)
            self.running[future] = index
            queue.add(future)

        # A worker that dies takes every task it was given with it: a chunk that was lost
        # once runs again alone, so only the chunk that kills its worker is given up on.
        suspects: set[int] = set()
        alone: int | None = None
        while following < total:
            while alone is None and todo and (
                    len(self.running) + len(self.done) < window + 1 or todo[-1] == following):
                if todo[-1] in suspects:
                    if not self.running:
                        alone = todo[-1]
                        submit(todo.pop())
                    break  # nothing else starts before it, nor while it runs
                submit(todo.pop())
            future = next(queue)
            index = self.running.pop(future)
            if index == alone:
                alone = None
            try:
                self.done[index] = future.result()
            except distributed.KilledWorker:
                # dask already reran it on other workers (its allowed-failures) before this
                if attempts[index] >= MAX_ATTEMPTS:
                    raise _gave_up(self.spec, index, "the workers playing it died") from None
                self.reruns += 1
                suspects.add(index)
                todo.append(index)
                todo.sort(reverse=True)
            except CardlabError:
                raise
            except Exception as err:  # noqa: BLE001 - a remote failure, named in one line
                raise CardlabError(f"a dask worker failed on games of chunk {index + 1}: "
                                   f"{type(err).__name__}: {err}") from None
            while following in self.done:
                yield self.done.pop(following)
                following += 1

    def finished(self) -> list[Part]:
        return [self.done[i] for i in sorted(self.done)]

    def close(self, now: bool = True) -> None:
        if self.running:
            try:
                self.client.cancel(list(self.running))
            except Exception:  # noqa: BLE001 - a cluster already gone: nothing to cancel
                print("cardlab: could not cancel the dask tasks in flight", file=sys.stderr)
            self.running.clear()
