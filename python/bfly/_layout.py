"""What bfly.distributed and bfly.multi_device share: the transform kinds,
the checks of a global shape, a name and a grid, and boxes as slices. It
imports neither MPI nor mpi4py, so bfly.multi_device runs without them;
each message names the module it is raised for (`who`)."""
import numpy as np

# kind -> (bfly kind, inverse)
KINDS = {"fft": ("c2c", False), "ifft": ("c2c", True), "rfft": ("r2c", False), "irfft": ("c2r", True)}


def global_shape(shape, who):
    try:
        shape = tuple(int(n) for n in shape)
    except TypeError:
        raise TypeError(f"{who}: shape must be a sequence of 2 or 3 lengths, not {shape!r}") from None
    if len(shape) not in (2, 3) or min(shape) < 1:
        raise ValueError(f"{who}: the global shape {shape} must have 2 or 3 axes of length >= 1")
    return shape


def choose(name, value, choices, who):
    if value not in choices:
        raise ValueError(f"{who}: {name} {value!r} is not one of {', '.join(map(repr, choices))}")
    return value


def grid(value, who):
    """A pencil grid as the C++ layer takes it: [P0, P1], or [] (None: the plan's choice)."""
    if value is None:
        return []
    try:
        value = [int(p) for p in value]
    except TypeError:
        raise TypeError(f"{who}: grid must be a pair (P0, P1), not {value!r}") from None
    if len(value) != 2 or min(value) < 1:
        raise ValueError(f"{who}: grid {tuple(value)} is not a pair (P0, P1) of positive counts")
    return value


def slices(box):
    """A box (lower, upper) of the C++ layer as a tuple of slices of the global array."""
    lower, upper = box
    return tuple(slice(lo, hi) for lo, hi in zip(lower, upper))


def box_shape(box):
    return tuple(s.stop - s.start for s in box)


def precision(work_in):
    """The C++ layer's precision name ("f32", "f64") of a working dtype."""
    return "f32" if np.empty(0, work_in).real.dtype.itemsize == 4 else "f64"
