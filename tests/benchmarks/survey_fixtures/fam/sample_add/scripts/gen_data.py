"""Survey fixture: inputs and golden output of the sample (run from the sample folder)."""
import numpy as np

rng = np.random.default_rng(7)
x = rng.uniform(-2, 2, 4096).astype(np.float32)
y = rng.uniform(-2, 2, 4096).astype(np.float32)
x.tofile("input/x.bin")
y.tofile("input/y.bin")
(x + y).tofile("output/golden.bin")
