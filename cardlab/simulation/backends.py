"""Who plays the chunks: this process, a process pool, or a dask.distributed cluster.

Each backend yields the chunks **in game order**: a chunk that finishes early waits in a
small buffer until the chunks before it are in. At most a few chunks per worker are in
flight, so memory stays flat however many games are played. A chunk whose worker dies
(a process pool's ``BrokenProcessPool``, dask's ``KilledWorker``) is played again, up to
:data:`MAX_ATTEMPTS` times; a game depends on its number alone, so the rerun gives the same
rows.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator
from typing import Any

from ..errors import CardlabError, OptionError, brief
from ..words import plural
from ..workers import Lifeline, broken, start_pool, stop_now
from .rows import Chunk, fault_setting, play_chunk
from .spec import Spec

MAX_ATTEMPTS = 3  # plays of one chunk before the run gives up on it
AHEAD = 2  # chunks in flight per worker
BROKEN_CHECK = 1.0  # seconds between looks at whether the pool broke without saying so


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

    def __init__(self, spec: Spec, replays: bool) -> None:
        self.spec, self.replays = spec, replays

    def chunks(self) -> Iterator[Chunk]:
        for index in range(len(self.spec.chunks())):
            yield play_chunk(self.spec, index, self.replays)

    def finished(self) -> list[Chunk]:
        """Chunks done but not yet yielded (none here)."""
        return []

    def close(self, now: bool = True) -> None:
        pass


def _worker_init() -> None:
    # Ctrl-C reaches the whole process group: the parent decides what happens (it writes
    # what is finished and stops the workers), so a worker does not die of it on its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _context() -> Any:
    # forkserver: workers are forked from a clean server process, not from this one (which
    # may hold threads: tqdm's monitor, a notebook's kernel); spawn where there is none.
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    # The server imports these once, and each worker is forked with them already loaded
    # (no effect if this process's forkserver is already running). pyarrow imports pandas
    # when it is given a numpy array, so pandas is among them.
    context.set_forkserver_preload(["numpy", "pyarrow", "pandas", "cardlab.simulation.rows"])
    return context


class Pool:
    """A ``concurrent.futures.ProcessPoolExecutor`` of ``workers`` processes."""

    def __init__(self, spec: Spec, replays: bool, workers: int) -> None:
        self.spec, self.replays, self.workers = spec, replays, workers
        self.fault = fault_setting()
        self.reruns = 0
        self.done: dict[int, Chunk] = {}
        self.executor: Any = None
        self.lifeline: Lifeline | None = None

    def _start(self) -> Any:
        # One lifeline for the pools of this run (a broken pool is replaced by a new one).
        self.executor, self.lifeline = start_pool(self.workers, _context(), _worker_init,
                                                  lifeline=self.lifeline)
        return self.executor

    def chunks(self) -> Iterator[Chunk]:
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool

        total = len(self.spec.chunks())
        lost = [0] * total  # times a chunk was in flight when the pool broke
        todo = list(range(total - 1, -1, -1))  # a stack: the next chunk to start is last
        running: dict[Any, int] = {}
        executor = self._start()
        following = 0  # the next chunk to yield
        window = self.workers * AHEAD
        while following < total:
            # A chunk lost twice may be the one that kills its worker: it runs alone, so a
            # chunk in flight beside it is not blamed (nor given up on) for its deaths.
            # (the next chunk to write always starts: the buffer may be full of later ones)
            while todo and (len(running) + len(self.done) < window + 1 or
                            todo[-1] == following) and \
                    not any(lost[i] >= 2 for i in running.values()):
                suspect = lost[todo[-1]] >= 2
                if suspect and running:
                    break
                try:
                    future = executor.submit(play_chunk, self.spec, todo[-1], self.replays,
                                             self.fault)
                except BrokenProcessPool:  # a worker died since the last wait: see below
                    break
                running[future] = todo.pop()
                if suspect:
                    break
            if not running:  # the pool broke with nothing in flight: start a new one
                stop_now(executor)
                executor = self._start()
                continue
            finished, _ = wait(running, timeout=BROKEN_CHECK, return_when=FIRST_COMPLETED)
            lost_now = []
            for future in finished:
                index = running.pop(future)
                try:
                    self.done[index] = future.result()
                except BrokenProcessPool:
                    lost_now.append(index)
            if not finished and broken(executor):
                # Broken, yet no future says so: a task submitted while the pool's manager
                # thread was failing the others (it takes no lock) is never failed itself.
                lost_now.append(running.pop(next(iter(running))))
            if lost_now:
                # The pool is gone: every chunk still running in it is lost too.
                lost_now.extend(running.values())
                running.clear()
                stop_now(executor)  # bounded: a stuck worker is killed, not waited for
                for index in lost_now:
                    lost[index] += 1
                    if len(lost_now) == 1 and lost[index] >= MAX_ATTEMPTS:
                        raise _gave_up(self.spec, index, "its worker process died")
                todo.extend(sorted(lost_now, reverse=True))
                todo.sort(reverse=True)
                self.reruns += len(lost_now)
                executor = self._start()
            while following in self.done:
                yield self.done.pop(following)
                following += 1

    def finished(self) -> list[Chunk]:
        return [self.done[i] for i in sorted(self.done)]

    def close(self, now: bool = True) -> None:
        """Stop the pool; ``now``: at once, without waiting for the chunks in flight (an
        interrupted or failed run). ``now=False`` once every chunk is in: the idle workers
        are told to exit."""
        executor, self.executor = self.executor, None
        if executor is not None:
            if now:
                stop_now(executor)
            else:
                executor.shutdown(wait=True)
        if self.lifeline is not None:
            self.lifeline.close()
            self.lifeline = None


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

    def __init__(self, spec: Spec, replays: bool, client: Any) -> None:
        self.spec, self.replays, self.client = spec, replays, client
        self.fault = fault_setting()
        self.reruns = 0
        self.done: dict[int, Chunk] = {}
        self.running: dict[Any, int] = {}

    def _workers(self) -> int:
        try:
            info = self.client.scheduler_info()
            return max(1, sum(w.get("nthreads", 1) for w in info["workers"].values()))
        except Exception:  # noqa: BLE001 - the count only sizes the window
            return 1

    def chunks(self) -> Iterator[Chunk]:
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
            future = self.client.submit(play_chunk, self.spec, index, self.replays, self.fault,
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

    def finished(self) -> list[Chunk]:
        return [self.done[i] for i in sorted(self.done)]

    def close(self, now: bool = True) -> None:
        if self.running:
            try:
                self.client.cancel(list(self.running))
            except Exception:  # noqa: BLE001 - a cluster already gone: nothing to cancel
                print("cardlab: could not cancel the dask tasks in flight", file=sys.stderr)
            self.running.clear()
