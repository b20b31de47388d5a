"""Worker processes of cardlab's own: they import cardlab alone, and end with their command.

``cardlab simulate`` and ``cardlab analyse --workers`` share their work with a
:class:`WorkerPool`. Each worker is a fresh Python interpreter, ``python -c BOOT``, that
imports :mod:`cardlab.workers` and nothing of the program that started it, and so:

- **a script needs no** ``if __name__ == "__main__":`` **guard.** multiprocessing's spawn
  and forkserver start methods run the main script again in every worker (as
  ``__mp_main__``), so an unguarded ``cardlab.simulate(..., workers=2)`` would start the
  run again in each of them;
- **a worker never outlives its command.** Its standard input is its line to the command:
  the jobs come that way, and a thread in the worker reads them as they come. When the
  command ends, however it ends (SIGKILL included), the system closes the other end; the
  thread reads the end of the file and the worker exits at once (status :data:`ORPHANED`);
- **the pool knows which job a dead worker took with it**: each worker does one job at a
  time and answers on its own standard output; the end of that output, before an answer,
  is the worker's death (:attr:`Outcome.died`), and that job alone is lost;
- **Ctrl-C is the command's to handle**: each worker runs in a process group (a session)
  of its own, so a terminal's Ctrl-C reaches the command alone, which stops the workers
  (:meth:`WorkerPool.close`) and writes what finished.

The jobs and their results travel pickled, each message preceded by its length. A job is a
function of cardlab's and its arguments; what it raises is raised again in the command, with
the worker's traceback as its cause.

>>> pool = WorkerPool(1)
>>> pool.submit("job", abs, -3)
>>> [(outcome.tag, outcome.value) for outcome in pool.wait()]
[('job', 3)]
>>> pool.close(now=False)
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import queue
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable
from typing import IO, Any

from .errors import CardlabError

ORPHANED = 70  # a worker's exit status when its command is gone (EX_SOFTWARE)
JOIN_SECONDS = 2.0  # how long a stopped worker is waited for before it is killed
HEADER = 8  # bytes of a message's length, before the message
STOP = bytes(HEADER)  # a message of length 0: the worker's last
# What a worker runs: the command's own import path first, so that it finds the same cardlab.
BOOT = ("import sys; sys.path[:] = __import__('json').loads(sys.argv[1]); "
        "from cardlab.workers import serve; serve()")


# -- messages --------------------------------------------------------------------------------

def _pack(message: object) -> bytes:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return len(data).to_bytes(HEADER, "big") + data


def _send(stream: IO[bytes], packed: bytes) -> None:
    stream.write(packed)
    stream.flush()


def _receive(stream: IO[bytes]) -> bytes | None:
    """The next message, still pickled; ``None`` at the end of the stream (or in a message
    cut short: its writer died while it was sending)."""
    header = stream.read(HEADER)
    if len(header) < HEADER:
        return None
    size = int.from_bytes(header, "big")
    data = stream.read(size)
    return data if len(data) == size else None


# -- in the worker ---------------------------------------------------------------------------

def serve() -> None:
    """A worker's life (``BOOT`` calls it): run each job it is sent, answer, until told to
    stop; exit at once if the command is gone."""
    import warnings

    # The command has said once that the kernel is pure; its workers need not say it again.
    warnings.filterwarnings("ignore", message="cardlab's kernel is not compiled")
    jobs = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    # What a job prints goes to the command's standard error, never into the answers.
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    inbox: queue.SimpleQueue[bytes] = queue.SimpleQueue()
    threading.Thread(target=_read_jobs, args=(jobs, inbox), name="cardlab-lifeline",
                     daemon=True).start()
    answer: bytes | None = _pack(("ready",))
    while True:
        if answer is not None:
            try:
                _send(answers, answer)
            except OSError:  # the command is gone (the lifeline thread is exiting too)
                os._exit(ORPHANED)
        data = inbox.get()
        if not data:
            return  # STOP
        try:
            function, args, wanted = pickle.loads(data)  # (it may import a module)
            value = function(*args)
            answer = _pack(("value", value)) if wanted else None
        except Exception as err:  # noqa: BLE001 - raised again in the command
            answer = _pack(("error", *_portable(err)))


def _read_jobs(jobs: IO[bytes], inbox: queue.SimpleQueue[bytes]) -> None:
    # The jobs are read as they come, and unpickled by the main thread: this one is always
    # reading, so it sees the end of the stream at once.
    while (data := _receive(jobs)) is not None:
        inbox.put(data)
        if not data:
            return  # STOP: the end of the stream that follows is expected
    os._exit(ORPHANED)  # the command is gone: no one wants this worker's results


def _portable(err: BaseException) -> tuple[BaseException, str]:
    """``err`` and its traceback, as something the command can unpickle."""
    text = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    try:
        pickle.loads(pickle.dumps(err))
    except Exception:  # noqa: BLE001 - an exception that does not travel: its words do
        err = CardlabError(str(err)) if isinstance(err, CardlabError) else \
            RuntimeError(f"{type(err).__name__}: {err}")
    return err, text


# -- in the command --------------------------------------------------------------------------

class WorkerTraceback(Exception):
    """The traceback of an exception raised in a worker (the cause of the one raised here)."""

    def __str__(self) -> str:
        return "in a worker process:\n" + str(self.args[0])


@dataclasses.dataclass
class Outcome:
    """What became of a job: its ``value``, or ``died`` (its worker died while doing it)."""

    tag: Any
    value: Any = None
    died: bool = False


class _Worker:
    """One worker process, and the thread here that reads its answers into ``events``."""

    def __init__(self, events: queue.SimpleQueue[Any]) -> None:
        if not sys.executable:
            raise CardlabError("cannot start worker processes: this Python does not know "
                               "its own executable (sys.executable is empty); use workers=0")
        apart: dict[str, Any] = {"start_new_session": True}
        if sys.platform == "win32":
            apart = {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
        try:
            self.process = subprocess.Popen([sys.executable, "-c", BOOT,
                                             json.dumps(sys.path)],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            **apart)
        except OSError as err:
            raise CardlabError(f"cannot start a worker process ({sys.executable}: "
                               f"{err.strerror or err}); use workers=0") from None
        self.ready = False
        self.busy = False
        self.tag: Any = None
        threading.Thread(target=self._read_answers, args=(events,), name="cardlab-answers",
                         daemon=True).start()

    def _read_answers(self, events: queue.SimpleQueue[Any]) -> None:
        # Only this thread touches the worker's output (closing it while this thread reads
        # it would wait for the read): it ends at the end of the output, the worker's end.
        stream = self.process.stdout
        assert stream is not None
        with stream:
            while (data := _receive(stream)) is not None:
                events.put((self, data))
        events.put((self, None))

    def send(self, packed: bytes) -> None:
        assert self.process.stdin is not None
        try:
            _send(self.process.stdin, packed)
        except OSError:
            pass  # the worker is gone: the end of its output says so, and loses the job

    def stop(self, now: bool) -> None:
        """Ask the worker to end: ``now``, at once (SIGTERM); else once its jobs are done."""
        if now:
            self.process.terminate()
        else:
            self.send(STOP)

    def reap(self) -> None:
        """Wait for the worker to end, a bounded time, then kill it."""
        try:
            self.process.wait(JOIN_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(JOIN_SECONDS)
        finally:
            try:
                assert self.process.stdin is not None
                self.process.stdin.close()
            except OSError:
                pass  # a half-sent job to a worker that is gone


class WorkerPool:
    """Up to ``size`` worker processes, started as jobs need them; each first runs
    ``setup(*setup_args)`` (a module-level function, to keep what the jobs share)."""

    def __init__(self, size: int, setup: Callable[..., Any] | None = None,
                 setup_args: tuple[Any, ...] = ()) -> None:
        self.size = size
        self.setup = None if setup is None else _pack((setup, setup_args, False))
        self.events: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.workers: list[_Worker] = []

    def free(self) -> int:
        """How many more jobs can start now."""
        return self.size - self.busy()

    def busy(self) -> int:
        """How many jobs are running."""
        return sum(worker.busy for worker in self.workers)

    def submit(self, tag: Any, function: Callable[..., Any], *args: Any) -> None:
        """Start ``function(*args)`` on an idle worker (one is started if needed); its
        :class:`Outcome` comes back from :meth:`wait` with ``tag``."""
        job = _pack((function, args, True))  # (what does not pickle fails here, not there)
        worker = next((w for w in self.workers if not w.busy), None)
        if worker is None:
            if len(self.workers) >= self.size:
                raise RuntimeError("every worker is busy: wait for one first")
            worker = _Worker(self.events)
            self.workers.append(worker)
            if self.setup is not None:
                worker.send(self.setup)
        worker.busy, worker.tag = True, tag
        worker.send(job)

    def wait(self) -> list[Outcome]:
        """The outcomes of one or more jobs, as soon as there are some. An exception a job
        raised is raised here; so is a :class:`~cardlab.errors.CardlabError` if a worker
        could not even start."""
        if not self.busy():
            raise RuntimeError("no job is running")
        outcomes: list[Outcome] = []
        while not outcomes:
            worker, data = self.events.get()
            if data is None:
                outcomes.extend(self._gone(worker))
                continue
            message = pickle.loads(data)
            if message[0] == "ready":
                worker.ready = True
            elif message[0] == "value":
                worker.busy = False
                outcomes.append(Outcome(worker.tag, message[1]))
            else:
                raise message[1] from WorkerTraceback(message[2])
        return outcomes

    def _gone(self, worker: _Worker) -> list[Outcome]:
        self.workers.remove(worker)
        worker.reap()  # its output ended: so does the worker
        if not worker.ready:
            raise CardlabError(f"a worker process could not start ({sys.executable} -c "
                               f"'from cardlab.workers import serve' ended with status "
                               f"{worker.process.returncode}); see its error above, or use "
                               f"workers=0")
        return [Outcome(worker.tag, died=True)] if worker.busy else []

    def close(self, now: bool = True) -> None:
        """Stop every worker: ``now``, at once (a run interrupted or failed: the jobs in
        flight are not waited for); else once idle. Each is given :data:`JOIN_SECONDS`,
        then killed."""
        workers, self.workers = self.workers, []
        for worker in workers:
            worker.stop(now)
        for worker in workers:
            worker.reap()
