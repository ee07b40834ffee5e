# cython: language_level=3, boundscheck=True, wraparound=True, binding=False
"""The precomputed walks of fast.py, compiled: an optional build, same answers.

fast.py's walks are closures over frozen tries; these are the same walks
over the same tries, reaching the same node and verdict, written for
Cython so that each step is a C call instead of bytecode. With them come
fronts for `Table.decide` and `decide_batch` that take the common call and
batch without a Python frame and hand everything else to the Python
methods. `pip install` compiles this file where a C compiler is at hand;
without one, or with POLICYC_PURE_WALKS=1 set, fast.py's own walks and the
Python methods decide (see `fast.WALKS`). The differential tests run both
against the reference.

Why by hand and not Cython over fast.py and engine.py as they stand:
compiled unchanged, they gained 20-25% (median, `benchmarks.ab`); most of
the gain here comes from not splitting the value into all its tokens,
which in Python is the cheapest way and in C the dearest (a list and a
string per token, where a walk mostly stops after one or two).

Nothing is imported here: the rare paths (inner globs, values that are not
plain strings) call back into fast.py's functions, handed over at build.
"""


cdef extern from "Python.h":
    # str.find for one character, without boxing the offsets.
    Py_ssize_t PyUnicode_FindChar(
        object text, Py_UCS4 ch, Py_ssize_t start, Py_ssize_t end, int direction
    ) except -2


def glob_walker(
    str field,
    tuple root,
    Py_ssize_t depth,
    frozenset tail_ends,
    none,
    settle_globs,
    matching,
    glob_matches,
    field_value,
):
    """fast._glob_walker's walk (the token trie; see its notes there)."""

    def decide(args):
        cdef Py_ssize_t pos, end, n, count
        cdef bint whole
        cdef tuple node, group
        cdef str value, last
        cdef object got, child, verdict, chain, tails
        if type(args) is dict:
            got = (<dict>args).get(field)
            if type(got) is str:
                value = <str>got
                node = root
                n = len(value)
                pos = 0
                count = 0  # tokens taken so far
                while True:
                    # `value.split(" ", depth)`, one token at a time: past
                    # `depth` tokens the rest is one token, as split leaves it.
                    end = PyUnicode_FindChar(value, 32, pos, n, 1) if count < depth else -1
                    whole = end < 0
                    if whole:
                        end = n
                    count += 1
                    # The node's children as a dict (fast.py calls its bound `get`).
                    child = (<dict>node[5]).get(value[pos:end])
                    if child is None:
                        verdict = node[2]
                        break
                    node = <tuple>child
                    if whole:
                        verdict = node[1]
                        break
                    pos = end + 1
                chain = node[3]
                if chain is not None:
                    tails = node[4]
                    if not chain:
                        # Only tails on the path (see fast.py): the last character
                        # first, then the last token's group, then its tails.
                        if value[n - 1 :] not in tail_ends:
                            return verdict
                        last = value[PyUnicode_FindChar(value, 32, 0, n, -1) + 1 :]
                        got = (<dict>tails).get(last)
                        if got is None:
                            return verdict
                        group = <tuple>got
                        if not value.endswith(group[0]):
                            return verdict
                        specs = matching((group[1],), value)
                    else:
                        specs = glob_matches(tails, chain, value)
                    if specs:
                        # The split's token count, which the settled verdicts are keyed by.
                        count = value.count(" ") + 1
                        return settle_globs(node, count if count <= depth else depth + 1, specs, value)
                return verdict
        return none if field_value(args, field) is None else None

    return decide


def prefix_walker(str field, tuple root, dict exact, none, field_value):
    """fast._prefix_walker's walk (the character trie)."""
    missing = object()

    def decide(args):
        cdef Py_ssize_t pos, n
        cdef tuple node, best, edge
        cdef str value, label
        cdef object got, hit
        if type(args) is dict:
            got = (<dict>args).get(field)
            if type(got) is str:
                value = <str>got
                hit = exact.get(value, missing)
                if hit is not missing:
                    return hit
                best = node = root
                pos = 0
                n = len(value)
                while pos < n:
                    got = (<dict>node[0]).get(value[pos])
                    if got is None:
                        break
                    edge = <tuple>got
                    label = <str>edge[0]
                    if not value.startswith(label, pos):
                        break
                    node = <tuple>edge[1]
                    pos += len(label)
                    if node[2]:
                        best = node
                return best[1]
        return none if field_value(args, field) is None else None

    return decide


def probe_walker(
    str field, dict exact, list lengths, heads, dict by_key, base, none, field_value
):
    """fast._probe_walker's walk (prefix keys of a few lengths)."""
    missing = object()
    cdef Py_ssize_t shortest = lengths[-1] if lengths else 0
    cdef tuple sizes = tuple(lengths)

    def decide(args):
        cdef str value
        cdef object got, hit, size
        if type(args) is dict:
            got = (<dict>args).get(field)
            if type(got) is str:
                value = <str>got
                hit = exact.get(value, missing)
                if hit is not missing:
                    return hit
                if heads is not None and value[:shortest] not in heads:
                    return base
                for size in sizes:
                    hit = by_key.get(value[: <Py_ssize_t>size], missing)
                    if hit is not missing:
                        return hit
                return base
        return none if field_value(args, field) is None else None

    return decide



def decide_front(dict walks, list sets, decide, decide_rest):
    """Table.decide, compiled for its common call: one subject, unconfined, no grant set.

    `walks`: the table's walks by tool (its `_fast`); `sets`: its grant sets
    in force (its `_sets`, changed in place; a lookup of the attribute on
    each call cost ~15 ns of the ~45 this adds to a walk); `decide`: the
    table's own method, which takes every other call, builds a tool's walk
    on its first call, and blocks on a fault (a walk that raises is run there
    again); `decide_rest(tool, args, confined, subjects, scope, cwd)`: what
    that method does when the walk leaves the call undecided.
    """

    def front(tool, args, confined=None, subjects=None, scope=None, cwd=None):
        """The verdict for one call; never raises. See `Table.decide`, whose front this is."""
        cdef object walk, verdict
        if subjects is None and confined is None and not sets:
            try:
                got = walks.get(tool)
            except Exception:  # an unhashable tool: `decide` blocks the call
                got = None
            if got is not None:
                walk = got
                try:
                    verdict = walk(args)
                except Exception:
                    return decide(tool, args, confined, subjects, scope, cwd)
                if verdict is not None:
                    return verdict
                return decide_rest(tool, args, confined, subjects, scope, cwd)
        return decide(tool, args, confined, subjects, scope, cwd)

    return front


def batch_front(dict walks, sets, owner, decide_batch, twins, Py_ssize_t failed):
    """engine.make_batch's `decide_batch`, compiled for its common batch.

    A list of plain {"tool", "args"} calls of tools whose walks decide them,
    no grant set active: each walk once, each verdict sorted as it comes
    (an allowed call is held when a sibling defers or failed), as the
    Python loop does. Any other batch, or one a walk leaves undecided or
    raises on, is `decide_batch`'s, from the start (the walks give the same
    verdicts again). `sets`: the owner's grant sets, a list it changes in
    place, or None to read `owner._sets` on each batch; `twins`: its
    engine.HeldTwins (a dict, read here without a method call).
    """

    def front(calls, scope=None):
        """Decide every call of one model response before any runs. See `Table.decide_batch`."""
        cdef list verdicts
        cdef bint holds = False, allows = False, plain = True
        cdef Py_ssize_t i
        cdef object verdict, action, held
        if type(calls) is not list or (owner._sets if sets is None else sets):
            return decide_batch(calls, scope)
        verdicts = []
        try:
            for call in <list>calls:
                if len(call) != 2:
                    plain = False
                    break
                verdict = walks[call["tool"]](call["args"])
                if verdict is None:
                    plain = False
                    break
                action = verdict[0]
                if action == "allow":
                    allows = True
                elif action == "defer" or verdict[failed]:
                    holds = True
                verdicts.append(verdict)
        except Exception:
            plain = False
        if not plain:
            return decide_batch(calls, scope)
        if holds and allows:
            # A second pass over the few verdicts, not a list of the allowed
            # ones built on the way: in C it is the cheaper of the two.
            for i in range(len(verdicts)):
                verdict = verdicts[i]
                if verdict[0] == "allow":
                    held = (<dict>twins).get(id(verdict))
                    verdicts[i] = held if held is not None else twins.twin(verdict)
        return verdicts

    return front
