"""bfly.next_fast_len (and bfly.scipy_fft.next_fast_len): the least length
at or past the target that bfly runs by its butterflies alone, 7-smooth,
even for real transforms; scipy's argument rules."""
import bfly
import bfly.scipy_fft
import numpy as np
import pytest


def smooth7(n):
    for p in (2, 3, 5, 7):
        while n % p == 0:
            n //= p
    return n == 1


def test_least_seven_smooth_at_or_past_the_target():
    for target in range(0, 3000):
        want = target
        while want > 0 and not smooth7(want):
            want += 1
        want_real = target
        while want_real > 1 and not (smooth7(want_real) and want_real % 2 == 0):
            want_real += 1
        assert bfly.next_fast_len(target) == want, target
        assert bfly.next_fast_len(target, real=True) == want_real, target
        assert bfly.scipy_fft.next_fast_len(target, True) == want_real


def test_far_targets_and_index_types():
    got = bfly.next_fast_len(10**15 + 1)
    assert got >= 10**15 + 1 and smooth7(got)
    assert bfly.next_fast_len(np.int64(1021)) == 1024
    assert bfly.next_fast_len(True) == 1  # (operator.index, as scipy)


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (2.5, TypeError), ("3", TypeError),
                                        (2**62, ValueError)])
def test_bad_targets_raise_as_scipy(bad, error):
    with pytest.raises(error):
        bfly.next_fast_len(bad)
