"""bfly across fork (issue 45; docs/PYTHON.md, "Processes and fork").

A process forked after its parent used a device cannot use that device
(PoCL's worker threads and a CUDA context do not cross a fork): bfly.fft
raises bfly.ForkedChildError at once, naming the fix; bfly.scipy_fft lets
scipy's own FFT compute there; the parent goes on as before. A process forked
before bfly opened a device uses bfly as any process. Each case runs in a
fresh interpreter under a timeout, so a hang fails the test, not the session.
"""
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


def _run(code, timeout=240):
    try:
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"hung (killed after {timeout} s): {e.stdout!r} {e.stderr!r}")
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


# In the child: `body` (which sets `ok`), then exit 0 if ok; the parent waits
# at most 60 s (a hang is reported as such), then runs `after`.
_FORK = """
import os, signal, sys, time, threading
import numpy as np, bfly

def child_then_parent(body, after=lambda: None):
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        signal.alarm(60)
        try:
            ok = body()
        except BaseException as e:
            print("child raised", type(e).__name__, e)
            ok = False
        sys.stdout.flush()
        os._exit(0 if ok else 1)
    deadline = time.time() + 90
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.time() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise SystemExit("the child hung")
        time.sleep(0.01)
    if os.WIFSIGNALED(status):
        raise SystemExit(f"the child died of signal {os.WTERMSIG(status)}")
    if os.WEXITSTATUS(status) != 0:
        raise SystemExit(f"the child failed ({os.WEXITSTATUS(status)})")
    after()

def refused():
    try:
        bfly.fft.fft(np.ones(16))
    except bfly.ForkedChildError as e:
        text = str(e)
        print("refused:", text)
        return "fork" in text and "spawn" in text
    print("not refused")
    return False

def correct(n=1000):
    x = np.random.default_rng(n).standard_normal((4, n)) + 1j
    return np.allclose(bfly.fft.fft(x), np.fft.fft(x), rtol=1e-5, atol=1e-4 * np.sqrt(n))
"""


def test_child_of_a_process_that_ran_transforms_is_refused_at_once():
    out = _run(_FORK + """
assert correct()
child_then_parent(refused, lambda: print("parent after:", correct(), correct(768)))
""")
    assert "refused:" in out and "parent after: True True" in out, out


def test_child_forked_while_threads_run_transforms():
    out = _run(_FORK + """
stop, wrong, runs = False, [], [0]
def loop():
    while not stop:
        if not correct(): wrong.append(1)
        runs[0] += 1
threads = [threading.Thread(target=loop) for _ in range(3)]
for t in threads: t.start()
while runs[0] < 3: time.sleep(0.001)
try:
    child_then_parent(refused)
finally:
    stop = True
    for t in threads: t.join()
print("parent executions:", runs[0], "wrong:", len(wrong))
assert not wrong
""")
    assert "refused:" in out, out


def test_child_forked_before_bfly_opened_a_device_computes():
    out = _run(_FORK + """
child_then_parent(lambda: print("child:", correct()) or correct())
print("parent:", correct())
""")
    assert "child: True" in out and "parent: True" in out, out


def test_scipy_pools_fork_and_spawn():
    # A pool forked after bfly ran (scipy's own FFT computes in its workers,
    # said once in the log) and a spawned one (whose workers run bfly).
    pytest.importorskip("scipy")
    script = textwrap.dedent("""
        import multiprocessing as mp, numpy as np, scipy.fft, bfly
        from fork_pool_work import work
        x = np.random.default_rng(1).standard_normal((64, 96))
        with scipy.fft.set_backend(bfly.scipy_fft, only=True):
            expect = (scipy.fft.fft(x), scipy.fft.irfft2(x))
        for method in ("fork", "spawn"):
            with mp.get_context(method).Pool(2) as pool:
                results = pool.map(work, [x] * 4)
            print(method, all(np.allclose(r[0], expect[0]) and np.allclose(r[1], expect[1]) for r in results))
    """)
    out = _pool_run(script)
    assert "fork True" in out and "spawn True" in out, out


def _pool_run(script, timeout=300):
    # Pool workers import the work function by module name: a module of its
    # own in a temporary folder on the path.
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "fork_pool_work.py"), "w") as f:
            f.write(textwrap.dedent("""
                import scipy.fft, bfly
                def work(x):
                    with scipy.fft.set_backend(bfly.scipy_fft, only=True):
                        return scipy.fft.fft(x, workers=2), scipy.fft.irfft2(x)
            """))
        env = dict(os.environ, PYTHONPATH=folder + os.pathsep + os.environ.get("PYTHONPATH", ""))
        try:
            done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout,
                                  env=env, cwd=folder)
        except subprocess.TimeoutExpired as e:
            pytest.fail(f"hung (killed after {timeout} s): {e.stdout!r} {e.stderr!r}")
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def test_scipys_multithreading_tests_with_fork():
    # SciPy's own scipy/fft/tests/test_multithreading.py (the installed
    # copy, unedited) with every test inside set_backend(bfly.scipy_fft,
    # only=True) and multiprocessing's 'fork' start method: its pool test
    # forks after transforms. DCT/DST cases wait for bfly's own (issue 41).
    scipy_fft = pytest.importorskip("scipy.fft")
    import bfly.scipy_fft
    source = os.path.join(os.path.dirname(scipy_fft.__file__), "tests", "test_multithreading.py")
    if not os.path.exists(source):
        pytest.skip(f"this SciPy has no {source}")
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "conftest.py"), "w") as f:
            f.write(textwrap.dedent("""
                import multiprocessing, pytest, scipy.fft, bfly
                multiprocessing.set_start_method("fork", force=True)

                @pytest.fixture(autouse=True)
                def _on_bfly():
                    with scipy.fft.set_backend(bfly.scipy_fft, only=True):
                        yield
            """))
        with open(source) as f, open(os.path.join(folder, "test_scipy_multithreading.py"), "w") as g:
            g.write(f.read())
        selection = [] if hasattr(bfly.scipy_fft, "dct") else ["-k", "not (dct or dst)"]
        try:
            done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                   "test_scipy_multithreading.py", *selection], capture_output=True, text=True,
                                  timeout=600, cwd=folder)
        except subprocess.TimeoutExpired as e:
            pytest.fail(f"hung (killed after 600 s): {e.stdout!r}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "failed" not in done.stdout, done.stdout
