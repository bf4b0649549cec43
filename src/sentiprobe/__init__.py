"""sentiprobe: measure what a sentiment model understands beyond polarity accuracy."""
import os as _os

# Intel MKL's float32 matrix products take another code path when the process starts with one OpenMP thread
# (OMP_NUM_THREADS=1) than with more, and on AVX-512 CPUs the two differ in the last bits: enough to move a
# fluency score of ARTS generation by 1e-4 and so the bytes written. STRICT conditional numerical reproducibility
# gives the same results whatever the thread count (about 10 % more CPU time in the fluency model); AUTO keeps the
# CPU's fastest instruction set. Set before torch loads MKL; a value the user set wins.
_os.environ.setdefault("MKL_CBWR", "AUTO,STRICT")

__version__ = "0.1.0"
