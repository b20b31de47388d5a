"""Process pools whose workers end with their command, however it ends.

A ``concurrent.futures.ProcessPoolExecutor`` worker waits for its next task on a pipe that
other workers also hold open, so when the command that started it is killed (SIGKILL, or
SIGTERM without a handler) nothing tells it to go: it waits for ever. Under the forkserver
start method each worker also holds the forkserver's and the resource tracker's pipes open,
so they outlive the command too.

:func:`start_pool` gives every worker a *lifeline*: the read end of a pipe whose write end
only the command holds. A thread in the worker waits on it; the operating system closes the
write end when the command ends, for any reason, and the worker exits at once. Once no worker
holds them, the forkserver and the resource tracker see the end of their own pipes and exit
as well. :func:`stop_now` ends a pool without waiting for the tasks in flight (a run that is
interrupted or has failed), each process given a bounded time.

>>> pool, lifeline = start_pool(1)
>>> pool.submit(abs, -3).result()
3
>>> stop_now(pool)
>>> lifeline.close()
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from typing import Any

ORPHANED = 70  # a worker's exit status when its command is gone (EX_SOFTWARE)
JOIN_SECONDS = 2.0  # how long a stopped worker is waited for before it is killed


class Lifeline:
    """A pipe: the command holds the write end, each worker watches the read end."""

    def __init__(self) -> None:
        self.reader, self.writer = multiprocessing.Pipe(duplex=False)

    def close(self) -> None:
        """Close both ends (after the pool is shut down): workers still alive then exit."""
        self.writer.close()
        self.reader.close()


def _watch(reader: Any) -> None:
    try:
        while True:
            reader.recv_bytes()  # nothing is ever sent: this returns only at the end
    except (EOFError, OSError):
        pass
    os._exit(ORPHANED)  # the command is gone: no one wants this worker's results


def _start_worker(reader: Any, writer: Any, initializer: Any, initargs: tuple[Any, ...]
                  ) -> None:
    # A forked worker inherits the command's write end (and a spawned one is sent a copy):
    # while it is open here, the worker would keep its own lifeline alive.
    writer.close()
    threading.Thread(target=_watch, args=(reader,), name="cardlab-lifeline",
                     daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


def start_pool(workers: int, context: Any = None, initializer: Any = None,
               initargs: tuple[Any, ...] = (), lifeline: Lifeline | None = None,
               ) -> tuple[Any, Lifeline]:
    """A ``ProcessPoolExecutor`` of ``workers`` processes (``context``: a multiprocessing
    context; ``initializer(*initargs)`` runs in each worker) whose workers exit when this
    process ends, and its :class:`Lifeline` (given, or new): close it after the pool."""
    from concurrent.futures import ProcessPoolExecutor

    line = Lifeline() if lifeline is None else lifeline
    pool: Any = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                    initargs=(line.reader, line.writer, initializer,
                                              initargs))
    # Every worker is started at the first submit, not one by one as tasks come: a worker
    # started by a later submit could be added while the pool's manager thread, finding a
    # dead worker, goes through the workers to terminate and join them (CPython 3.11 to
    # 3.13 take no lock there), and that thread would then fail, or wait for ever on the
    # new one, and so would the pool's shutdown.
    pool._safe_to_dynamically_spawn_children = False
    return pool, line


def broken(pool: Any) -> bool:
    """Whether ``pool`` lost a worker (it then takes no task, and its tasks in flight are
    lost, whether or not their futures say so)."""
    return bool(getattr(pool, "_broken", False))


def stop_now(pool: Any) -> None:
    """Shut ``pool`` down without waiting for its tasks: each worker is terminated, given
    :data:`JOIN_SECONDS` to go, then killed; every pending future is cancelled."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(JOIN_SECONDS)
        if process.is_alive():
            process.kill()
            process.join(JOIN_SECONDS)
    # A worker stopped while it was sending its result leaves half a message in the
    # result pipe, and the pool's manager thread would wait for the rest for ever (and
    # so would shutdown, and the interpreter's exit). The workers' ends of the pipe are
    # gone with them; closing this process's own gives the thread an end of file.
    queue = getattr(pool, "_result_queue", None)
    writer = getattr(queue, "_writer", None)
    if writer is not None:
        writer.close()
    pool.shutdown(wait=True, cancel_futures=True)
