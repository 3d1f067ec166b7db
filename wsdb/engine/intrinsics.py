"""Two machine operations numba does not offer on the CPU, as LLVM
intrinsics for the two-bit census (:mod:`.packed_kernels`).

* ``atomic_and(words, i, mask)`` clears bits of one 64-bit word in one
  indivisible step and returns the word as it was. The census keeps 32
  states in a word and both threads may mark states of one word at once; a
  plain load, AND and store would let one thread's store undo the other's.
  The returned word says whether the state was still unmarked, so each is
  counted once. LLVM's ``atomicrmw and`` is one ``lock and`` on x86.
* ``prefetch(words, i)`` asks for the cache line of ``words[i]`` without
  waiting for it (``llvm.prefetch``). A census level is random loads into a
  table of hundreds of MB; asked for a batch ahead, the lines arrive while
  the core works on the batch before.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.errors import NumbaTypeError
from numba.extending import intrinsic


def _word_pointer(context, builder, signature, args):
    arr, idx = args[0], args[1]
    aryty = signature.args[0]
    ary = context.make_array(aryty)(context, builder, arr)
    idx = context.cast(builder, idx, signature.args[1], types.intp)
    return cgutils.get_item_pointer(context, builder, aryty, ary, [idx])


def _check_words(name, words, index, dtype=types.uint64):
    if not (isinstance(words, types.Array) and words.ndim == 1 and (dtype is None or words.dtype == dtype)):
        raise NumbaTypeError(f"{name} expects a 1-d {dtype or ''} array, got {words}")
    if not isinstance(index, types.Integer):
        raise NumbaTypeError(f"{name} expects an integer index, got {index}")


@intrinsic
def atomic_and(typingctx, words, index, mask):
    """Atomically ``words[index] &= mask``; returns the word before."""
    _check_words("atomic_and", words, index)
    if mask != types.uint64:
        raise NumbaTypeError(f"atomic_and expects a uint64 mask, got {mask}")

    def codegen(context, builder, signature, args):
        ptr = _word_pointer(context, builder, signature, args)
        return builder.atomic_rmw("and", ptr, args[2], "monotonic")

    return types.uint64(words, index, mask), codegen


@intrinsic
def prefetch(typingctx, words, index):
    """Start loading the cache line of ``words[index]`` (any 1-d array; for
    reading, kept in every cache level); returns at once."""
    _check_words("prefetch", words, index, dtype=None)

    def codegen(context, builder, signature, args):
        ptr = _word_pointer(context, builder, signature, args)
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32]), "llvm.prefetch.p0i8"
        )
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), i32(0), i32(3), i32(1)])  # read, keep, data
        return context.get_dummy_value()

    return types.void(words, index), codegen
