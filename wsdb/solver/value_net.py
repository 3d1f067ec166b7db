"""A learned guide: a small value network that estimates a state's whole
distance to solved (DeepCubeA's cost-to-go function, Agostinelli et al.
2019; the thesis' guides, §4.1, estimate one phase's).

The network is a multilayer perceptron: the state one-hot (a cell's label
picks one row of the first layer's weights, so the first layer is a sum of
N rows), two hidden layers of rectified units, one linear output. It is
trained by :mod:`.training` and read here, by a numba kernel (:mod:`.value_kernels`) whose every
sum runs in one fixed order: the same weights give the same estimates, bit
for bit, on any machine and any number of threads (each state is one
thread's work; no sum is split, no fused multiply-add is allowed). The
solver's answers therefore stay a function of the state, the settings and
the weights alone (:mod:`.effort`).

Training's own forward and backward passes (:func:`forward`,
:func:`gradients`) are numpy matrix products, faster where many states
are scored at once; they may differ from the kernel in the last bits,
which only the weights, never an answer, depend on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from .value_kernels import net_values


@dataclass(frozen=True, eq=False)
class ValueNet:
    """Weights of the estimate: ``w1`` (N*L, H1), ``b1`` (H1,), ``w2`` (H1,
    H2), ``b2`` (H2,), ``w3`` (H2,), ``b3`` (1,), all float32, for states
    of N cells holding labels 0..L-1 (row ``i*L + label`` of ``w1`` is cell
    i holding that label)."""

    cells: int
    labels: int
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray

    @property
    def hidden(self) -> tuple[int, int]:
        return self.w1.shape[1], self.w2.shape[1]

    @property
    def macs(self) -> int:
        """Multiply-adds (and the first layer's adds) of one estimate."""
        h1, h2 = self.hidden
        return self.cells * h1 + h1 * h2 + h2

    @property
    def arrays(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2, self.w3, self.b3]

    @classmethod
    def of(cls, cells: int, labels: int, arrays: list[np.ndarray]) -> "ValueNet":
        """From :attr:`arrays` (checked for shape; copied to float32)."""
        w1, b1, w2, b2, w3, b3 = (np.ascontiguousarray(a, dtype=np.float32) for a in arrays)
        h1, h2 = w1.shape[1], w2.shape[1]
        shapes = [(cells * labels, h1), (h1,), (h1, h2), (h2,), (h2,), (1,)]
        if [a.shape for a in (w1, b1, w2, b2, w3, b3)] != shapes:
            raise ValueError(f"weights of shapes {[a.shape for a in (w1, b1, w2, b2, w3, b3)]}, expected {shapes}")
        return cls(cells, labels, w1, b1, w2, b2, w3, b3)

    @classmethod
    def initial(cls, cells: int, labels: int, hidden: tuple[int, int], rng: np.random.Generator) -> "ValueNet":
        """He-initialised weights (rectified units), zero biases."""
        h1, h2 = hidden
        w1 = rng.standard_normal((cells * labels, h1)) * np.sqrt(2.0 / cells)  # N rows are summed
        w2 = rng.standard_normal((h1, h2)) * np.sqrt(2.0 / h1)
        w3 = rng.standard_normal(h2) * np.sqrt(1.0 / h2)
        return cls.of(cells, labels, [w1, np.zeros(h1), w2, np.zeros(h2), w3, np.zeros(1)])

    def values(self, states: np.ndarray) -> np.ndarray:
        """The estimate of each state (rows of cells), float32."""
        states = np.ascontiguousarray(states, dtype=np.uint8)
        if states.ndim != 2 or states.shape[1] != self.cells:
            raise ValueError(f"states of shape {states.shape}: expected (count, {self.cells})")
        return net_values(states, self.w1, self.b1, self.w2, self.b2, self.w3, self.b3)


def one_hot(states: np.ndarray, labels: int) -> np.ndarray:
    """(count, N*L) float32: row ``i*L + label`` set for cell i."""
    count, ncells = states.shape
    x = np.zeros((count, ncells * labels), np.float32)
    cols = np.arange(ncells) * labels + states
    x[np.arange(count)[:, None], cols] = 1.0
    return x


def forward(net: ValueNet, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Training's forward pass over one-hot rows ``x``: (estimates, first
    and second hidden activations)."""
    a1 = np.maximum(x @ net.w1 + net.b1, 0.0)
    a2 = np.maximum(a1 @ net.w2 + net.b2, 0.0)
    return a2 @ net.w3 + net.b3[0], a1, a2


def gradients(net: ValueNet, x: np.ndarray, targets: np.ndarray) -> tuple[float, list[np.ndarray]]:
    """The mean squared error of the estimates of ``x`` against
    ``targets`` and its gradient, one array per :attr:`ValueNet.arrays`."""
    v, a1, a2 = forward(net, x)
    err = v - targets
    dv = (2.0 / len(x)) * err.astype(np.float32)
    dw3 = a2.T @ dv
    dz2 = np.outer(dv, net.w3) * (a2 > 0)
    dw2 = a1.T @ dz2
    dz1 = (dz2 @ net.w2.T) * (a1 > 0)
    dw1 = x.T @ dz1
    grads = [dw1, dz1.sum(axis=0), dw2, dz2.sum(axis=0), dw3, np.array([dv.sum()], np.float32)]
    return float(np.mean(err * err)), grads
