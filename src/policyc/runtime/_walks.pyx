# cython: language_level=3, boundscheck=True, wraparound=True, binding=False
"""The precomputed walks of walks.py, compiled: an optional build, same answers.

walks.py's walks are closures over fast.py's frozen tries; these are the same walks
over the same tries, reaching the same node and verdict, written for
Cython so that each step is a C call instead of bytecode. With them come
fronts for `Table.decide` and `decide_batch` that take the common call and
batch without a Python frame and hand everything else to the Python
methods. `pip install` compiles this file where a C compiler is at hand;
without one, or with POLICYC_PURE_WALKS=1 set, walks.py's walks and the
Python methods decide (see `fast.WALKS`). The differential tests run both
against the reference.

Why by hand and not Cython over fast.py and engine.py as they stand:
compiled unchanged, they gained 20-25% (median, `benchmarks.ab`); most of
the gain here comes from making no string at all on the way: the token
walk hashes each token as it scans for the space that ends it and looks it
up in a table of its own (`TokenTable`), where Python's way, the cheapest
there, is a list and a string per token and a dict per node.

Nothing is imported here: the rare paths (inner globs, values that are not
plain strings) call back into fast.py's functions, handed over at build.
"""


cdef extern from "Python.h":
    # A str's characters where they lie, read without making a string.
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index)
    object PyLong_FromVoidPtr(void* p)  # what id() returns
    void* PyLong_AsVoidPtr(object o) except? NULL
    ctypedef struct PyObject
    void Py_INCREF(object o)
    void Py_XDECREF(PyObject* o)
    tuple PyTuple_New(Py_ssize_t n)
    void PyTuple_SET_ITEM(object t, Py_ssize_t i, object o)
    void* PyMem_Calloc(size_t count, size_t size)
    void* PyMem_Malloc(size_t size)
    void PyMem_Free(void* block)


cdef extern from *:
    """
    #if defined(POLICYC_PLAIN_C) || !(defined(__GNUC__) || defined(__clang__) \\
        || (defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))))
    /* Any other C compiler: a fetch is only a hint, and the two bit counts
       (of a word known not to be 0) are loops. tests/test_other_builds.py builds
       this branch on GCC (-DPOLICYC_PLAIN_C) and runs the walks' tests. */
    #define POLICYC_PLAIN 1
    #define policyc_prefetch(address) ((void)(address))
    static int policyc_ctz64(unsigned long long x) {
        int n = 0;
        while (!(x & 1)) { x >>= 1; n++; }
        return n;
    }
    static int policyc_clz64(unsigned long long x) {
        int n = 0;
        while (!(x >> 63)) { x <<= 1; n++; }
        return n;
    }
    #elif defined(__GNUC__) || defined(__clang__)
    #define POLICYC_PLAIN 0
    #define policyc_prefetch(address) __builtin_prefetch(address)
    #define policyc_ctz64(x) __builtin_ctzll(x)
    #define policyc_clz64(x) __builtin_clzll(x)
    #else  /* MSVC, 64-bit: its intrinsics for the same (compiled by
              tests/test_other_builds.py with Clang for MSVC's targets) */
    #define POLICYC_PLAIN 0
    #include <intrin.h>
    #if defined(_M_X64)
    #include <xmmintrin.h>
    #define policyc_prefetch(address) _mm_prefetch((const char*)(address), _MM_HINT_T0)
    #else
    #define policyc_prefetch(address) __prefetch(address)
    #endif
    static __forceinline int policyc_ctz64(unsigned long long x) {
        unsigned long at;
        _BitScanForward64(&at, x);
        return (int)at;
    }
    static __forceinline int policyc_clz64(unsigned long long x) {
        unsigned long at;
        _BitScanReverse64(&at, x);
        return 63 - (int)at;
    }
    #endif
    """
    # A fetch of the line `address` is on, as a hint (GCC's and Clang's
    # builtin, MSVC's intrinsic, else nothing), and the zero bits below the
    # lowest set bit and above the highest of a word that is not 0.
    void prefetch "policyc_prefetch"(const void* address) noexcept
    int low_zeros "policyc_ctz64"(unsigned long long x) noexcept
    int high_zeros "policyc_clz64"(unsigned long long x) noexcept
    const bint PLAIN "POLICYC_PLAIN"


# Whether this build took the plain C above (tests/test_other_builds.py builds it so).
PLAIN_C = PLAIN


cdef extern from *:
    """
    #if defined(__clang__)
    #define POLICYC_BUILT_BY "clang"
    #elif defined(__GNUC__)
    #define POLICYC_BUILT_BY "gcc"
    #elif defined(_MSC_VER)
    #define POLICYC_BUILT_BY "msvc"
    #else
    #define POLICYC_BUILT_BY "other"
    #endif
    """
    const char* BUILT_BY_NAME "POLICYC_BUILT_BY"


# The compiler family that built this module: "gcc", "clang", "msvc" or
# "other" (what tests/test_other_builds.py checks its builds by).
BUILT_BY = BUILT_BY_NAME.decode("ascii")


cdef extern from *:
    """
    #if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) \\
        || (defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64)))
    #define POLICYC_WORDS_READ 1
    #else
    #define POLICYC_WORDS_READ 0
    #endif
    """
    # Whether eight Latin-1 characters load as one word in the order the
    # hash packs them (the first in the lowest byte); else a byte at a time.
    # (MSVC's 64-bit targets are little-endian and define no __BYTE_ORDER__.)
    const bint WORDS_READ "POLICYC_WORDS_READ"


cdef extern from "string.h":
    int memcmp(const void* a, const void* b, size_t n) noexcept
    void* memcpy(void* to, const void* source, size_t n) noexcept


ctypedef unsigned long long u64


cdef struct Edge:
    # 32 bytes, and the table starts on a cache line: a slot never straddles
    # two lines (at 48 bytes half of them did), and at 100,000 rules the
    # table is 8 MB instead of 12. A node is named by the slot of the edge
    # that reaches it (the root by ROOT), so the slot needs no child number;
    # its frozen tuple is in `node_at`, its inner globs in GlobIndex's `at`.
    int parent  # the parent's slot, or ROOT; EMPTY: an empty slot
    unsigned int shape  # the token's length in characters << 8 | flags
    u64 text  # the token's characters, packed a byte each, or where they start in `chars`
    # The verdicts of the child's frozen tuple (held by TokenTable.nodes).
    void* end
    void* past


cdef enum:
    EMPTY = -1
    ROOT = -2
    FLAG_BITS = 8
    PACKED = 1  # `text` holds the token's characters (up to 8, each below 256)
    LEAF = 2  # the child has no children: any further token would miss
    NO_GLOBS = 4  # the child's chain is None: no inner glob on its path
    TAILS_ONLY = 8  # its chain is empty: only globs with a space in their tail
    TAIL_LAST = 16  # the token is the last token of some tail of the tool (`lasts`)


cdef inline int node_flags(tuple node) noexcept:
    chain = node[3]
    return (
        (LEAF if not node[5] else 0)
        | (NO_GLOBS if chain is None else 0)
        | (TAILS_ONLY if chain is not None and not chain else 0)
    )


# The seed of a first token's hash. A later token's is the hash of the token
# before it, so a token's hash is a hash of the path up to it, made from the
# value's text alone. Seeded by its parent's slot, as it was, the next
# token's hash waited for this one's slot to be read; `bash` calls were 4-6
# ns slower at N=10 and 100,000, at 5x and 50x (`benchmarks.ab`, two runs).
cdef u64 ROOT_SEED = 0xCBF29CE484222325ULL


cdef inline u64 mix(u64 h) noexcept:
    # MurmurHash3's finaliser: every bit of `h` moves the low ones a slot takes.
    h ^= h >> 33
    h *= 0xFF51AFD7ED558CCDULL
    h ^= h >> 33
    h *= 0xC4CEB9FE1A85EC53ULL
    return h ^ (h >> 33)


cdef inline u64 space_bytes(u64 eight) noexcept:
    """The top bit of each byte of `eight` that is a space (32), and no other bit.

    Exact for every byte (the shorter `(x - 0x01..) & ~x` test may also mark
    a byte above a real one, and the last token is sought from the top).
    """
    cdef u64 x = eight ^ 0x2020202020202020ULL  # a space's byte is now 0
    cdef u64 low7 = 0x7F7F7F7F7F7F7F7FULL
    return ~(((x & low7) + low7) | x | low7)


cdef struct Token:
    Py_ssize_t end  # where it ends: the space after it, or the value's end
    u64 hash
    u64 word  # its last characters, up to 8, a byte each (all of them if it has 8 or fewer)
    unsigned int high  # its characters or'ed: below 256 if all are Latin-1


cdef struct Hashing:
    # A token's hash as it is scanned: the words mixed so far, the one being
    # filled (eight bits a character), and its characters or'ed.
    u64 h
    u64 word
    int shift
    unsigned int high  # (a Py_UCS4 or'ed is a str to Cython)


cdef inline void hash_char(Hashing* state, Py_UCS4 ch) noexcept:
    """One character more of a token's hash (any kind of str)."""
    if state.shift == 64:
        state.h = mix(state.h ^ state.word)
        state.word = 0
        state.shift = 0
    state.high |= <unsigned int>ch
    state.word ^= (<u64>ch) << state.shift  # wider characters spill: only the hash reads them
    state.shift += 8


cdef inline void scan_token(
    Token* token, u64 seed, int kind, void* data, Py_ssize_t pos, Py_ssize_t n, bint to_end
) noexcept:
    """The token of a value from `pos` up to the next space (or to `n`, with
    `to_end`), hashed as it is scanned.

    Eight characters at a time, a byte each, then a mix per eight: the walk
    hashed a code point at a time with a multiply each (FNV-1a), a chain of
    dependent multiplies, and compared a packed token a character at a time;
    a word at a time both cost less (`benchmarks.ab`, see the commit). The
    hash is a function of the code points alone, whatever the string's
    kind, so a token hashes alike in every value and in the table.
    """
    cdef Hashing state
    cdef Py_UCS4 ch
    cdef Py_ssize_t end = pos
    cdef const unsigned char* latin = <const unsigned char*>data
    cdef u64 eight, spaces
    state.h, state.word, state.shift, state.high = seed, 0, 0, 0
    if kind == 1 and not to_end:  # the common case: one byte a character
        # Eight characters a load while eight are left: the word the byte
        # loop below packs is the load itself, up to the first space in it.
        # A character at a time cost ~7 instructions each; with this (and
        # last_token's load), a call of words no rule names executes 1,391
        # instructions at 100,000 rules, not 1,544 (`benchmarks.instructions`).
        while WORDS_READ and end + 8 <= n:
            memcpy(&eight, latin + end, 8)
            spaces = space_bytes(eight)
            if spaces:
                spaces = low_zeros(spaces) >> 3  # the characters before the space
                state.word = eight & ((1ULL << (spaces * 8)) - 1)
                end += spaces
                break
            end += 8
            if end == n or latin[end] == 32:  # the token is these eight
                state.word = eight
                break
            state.h = mix(state.h ^ eight)  # more follow: fold these in
        else:
            # (hash_char's steps, the character known to be a byte)
            while end < n and latin[end] != 32:
                if state.shift == 64:
                    state.h = mix(state.h ^ state.word)
                    state.word = 0
                    state.shift = 0
                state.word |= (<u64>latin[end]) << state.shift
                state.shift += 8
                end += 1
    else:
        while end < n:
            ch = PyUnicode_READ(kind, data, end)
            if ch == 32 and not to_end:
                break
            hash_char(&state, ch)
            end += 1
    token.end = end
    token.hash = mix(state.h ^ state.word)
    token.word = state.word
    token.high = state.high


cdef struct LastToken:
    Py_ssize_t start  # where it starts: after the value's last space, or at 0
    u64 key  # TokenFilter's key: a hash of its characters and its length


cdef inline void last_token(LastToken* last, int kind, void* data, Py_ssize_t n) noexcept:
    """A value's last token, found from the end in one pass: where it starts,
    and the key TokenFilter tests.

    The key is not the walk's hash of the token (`scan_token`): its
    characters are folded into a word as the start is sought (the word
    turned a byte, a character xor'ed in), then mixed once with the length.
    Weaker than the walk's hash, so the filter may say "maybe" a little more
    often, never "no" wrongly. Finding the start and then hashing the token
    as the walk does cost ~140 instructions a call that stops short of its
    last token (callgrind, `benchmarks.instructions`, 100,000 rules), a
    quarter of what such a call there executes more than at N=10.
    """
    cdef Py_ssize_t start = n
    cdef u64 word = 0, eight, spaces
    cdef Py_UCS4 ch
    cdef const unsigned char* latin = <const unsigned char*>data
    if kind == 1:
        if WORDS_READ and n >= 8:
            # The last eight characters in one load: up to eight, the
            # folded word is the load itself, above the last space in it.
            memcpy(&eight, latin + n - 8, 8)
            spaces = space_bytes(eight)
            if spaces:
                spaces = (63 - high_zeros(spaces)) >> 3  # the last space's byte
                last.start = n - 7 + spaces
                # (a shift by 64 is undefined in C: a value ending in a space)
                word = 0 if spaces == 7 else eight >> (spaces * 8 + 8)
                last.key = mix(word ^ (<u64>(n - last.start) * 0x9E3779B97F4A7C15ULL))
                return
            word = eight  # eight characters and no space: go on a character at a time
            start = n - 8
        while start > 0 and latin[start - 1] != 32:
            start -= 1
            word = ((word << 8) | (word >> 56)) ^ latin[start]
    else:
        while start > 0:
            ch = PyUnicode_READ(kind, data, start - 1)
            if ch == 32:
                break
            start -= 1
            word = ((word << 8) | (word >> 56)) ^ <u64>ch  # (the build folds them alike)
    last.start = start
    last.key = mix(word ^ (<u64>(n - start) * 0x9E3779B97F4A7C15ULL))


cdef inline void scan_str(Token* token, u64 seed, str text) noexcept:
    scan_token(token, seed, PyUnicode_KIND(text), PyUnicode_DATA(text), 0, len(text), True)


cdef class TokenTable:
    """A frozen token trie's edges, (parent, token) -> child, in one open-addressed table.

    The walk over the trie's dicts made a string of each token, hashed it and
    looked it up in its node's dict: ~40 ns a token with everything in the
    CPU cache and, at 100,000 rules, five or six cache lines out of ~180 MB
    when not (the dict, its keys, the slot, the entry, the key, the child).
    Here a token is hashed while it is scanned for the space that ends it
    and found in one slot that holds its characters (up to 8 Latin-1 ones;
    longer tokens are compared against the table's own copy), its child's
    verdicts and whether the child has children or globs: no string, one
    line, and the child's tuple is read only where globs may match. (At
    100,000 rules, with each call made once among the others, each line
    not read saves ~70 ns.) Hashes only pick the slot; a token is told
    apart by its parent, length and characters, so a lookup answers exactly
    what the dict did. A node is named by the slot of the edge that reaches
    it (the root by ROOT); `node_at` holds, by slot, their frozen tuples,
    which carry everything else a node has (read to build the walk's
    GlobIndex, and to settle a new kind of value that inner globs match).
    A token no edge has is mostly turned away by a bit array (`known`) a
    128th the slots' size, which stays in the CPU cache where they do not.
    """

    cdef Edge* edges  # `block`, from its first cache line on
    cdef void* block
    cdef u64 mask
    cdef Py_UCS4* chars
    cdef list nodes  # the frozen tuples of the nodes the edges reach, held
    cdef void** node_at  # by slot: the frozen tuple of the node its edge reaches
    # A bit per (parent, token) hash, set for every edge: a token whose bit
    # is clear has no edge, and is known missing without its slot being read.
    cdef u64* known
    cdef u64 known_mask

    def __cinit__(self, tuple root, lasts=()):
        # `lasts`: the tokens whose edges get TAIL_LAST (the glob walk's
        # tails' last tokens).
        # `found`: (the index in `found` of the edge to the parent, or -1 for
        # the root; token; child), breadth first: a parent's slot is known
        # before its children are placed.
        cdef list found = [(-1, token, child) for token, child in (<dict>root[5]).items()]
        cdef list slots = []
        cdef Py_ssize_t total = 0, size = 8, i = 0, k, at = 0, up
        cdef int parent
        cdef str token
        cdef Py_UCS4 ch
        cdef u64 slot, bit
        cdef Token scanned
        cdef Edge* edge
        cdef frozenset tail_lasts = frozenset(lasts)
        cdef u64* path_hash
        while i < len(found):
            for token, child in (<dict>(<tuple>found[i])[2][5]).items():
                found.append((i, token, child))
            i += 1
        while size < 2 * len(found):  # at most half full
            size *= 2
        if size >= 2**31:
            raise OverflowError("a token trie of 2**30 edges")
        for up, token, child in found:
            if len(token) >= 2 ** (32 - FLAG_BITS):
                raise OverflowError("a token of 2**24 characters")
            total += len(token)
        self.mask = size - 1
        # Two bits a slot, so four or more an edge: at most about 1 in 5
        # tokens with no edge gets past to the slots, 1/128 of their memory.
        # With eight bits a slot (1 in 16 past, 256 KB at 100,000 rules)
        # calls were slower: the array fell out of the CPU cache more often
        # than the slots read for the extra few cost (see the commit).
        self.known_mask = size * 2 - 1
        self.known = <u64*>PyMem_Calloc(max(1, size * 2 // 64), sizeof(u64))
        self.block = PyMem_Calloc(size * sizeof(Edge) + 64, 1)
        self.chars = <Py_UCS4*>PyMem_Calloc(total + 1, sizeof(Py_UCS4))
        if self.block == NULL or self.chars == NULL or self.known == NULL:
            raise MemoryError()
        self.edges = <Edge*>((<size_t>self.block + 63) & ~(<size_t>63))
        self.nodes = [child for up, token, child in found]
        self.node_at = <void**>PyMem_Calloc(size, sizeof(void*))
        if self.node_at == NULL:
            raise MemoryError()
        for i in range(size):
            self.edges[i].parent = EMPTY
        # Each edge's hash, by its index in `found`: its children's seed. (A
        # list of ints took 4 MB more at the build's peak at 100,000 rules.)
        path_hash = <u64*>PyMem_Malloc(max(1, len(found)) * sizeof(u64))
        if path_hash == NULL:
            raise MemoryError()
        try:
            i = 0
            for up, token, child in found:
                parent = ROOT if up < 0 else slots[up]
                scan_str(&scanned, ROOT_SEED if up < 0 else path_hash[up], token)
                path_hash[i] = scanned.hash
                i += 1
                slot = scanned.hash & self.mask
                bit = (scanned.hash >> 32) & self.known_mask  # bits the slot's index has not
                self.known[bit >> 6] |= 1ULL << (bit & 63)
                while self.edges[slot].parent != EMPTY:
                    slot = (slot + 1) & self.mask
                slots.append(slot)
                self.node_at[slot] = <void*>child
                edge = &self.edges[slot]
                edge.parent = parent
                edge.end, edge.past = <void*>child[1], <void*>child[2]
                edge.shape = node_flags(child) | (TAIL_LAST if token in tail_lasts else 0)
                if len(token) <= 8 and scanned.high < 256:
                    edge.shape |= PACKED
                    edge.text = scanned.word
                else:
                    edge.text = at
                    for k, ch in enumerate(token):
                        self.chars[at + k] = ch
                    at += len(token)
                edge.shape |= len(token) << FLAG_BITS
        finally:
            PyMem_Free(path_hash)

    def __dealloc__(self):
        PyMem_Free(self.block)
        PyMem_Free(self.chars)
        PyMem_Free(self.node_at)
        PyMem_Free(self.known)

    cdef Edge* find(
        self, Token* token, Py_ssize_t parent, int kind, void* data, Py_ssize_t start
    ) noexcept:
        """The edge from `parent` by the token value[start:token.end], or NULL."""
        cdef u64 slot = token.hash & self.mask
        cdef Edge* edge
        cdef Py_ssize_t k, length = token.end - start
        # A wide token's word may spell a Latin-1 one's ("šb" and "ac"): it is
        # never compared by the word.
        cdef bint packs = token.high < 256
        cdef u64 bit = (token.hash >> 32) & self.known_mask
        # The slot is fetched before the bit is read: where the bit's line is
        # out of the CPU cache too, a token that has an edge waited for it,
        # then for its slot. 100,000 rules, calls that hit a rule, three
        # `benchmarks.ab` runs: 594 -> 531, 544 -> 498 and 442 -> 404 ns made
        # once, 190 -> 176, 183 -> 169 and 145 -> 135 at 5x; calls that miss
        # 3-6 ns slower made once (the slot they fetch for nothing), the same
        # at 5x. With 32 MB read between blocks (`--evict 32`), this and the
        # walk's fetch of `past` changed no median by more than 3%.
        prefetch(&self.edges[slot])
        if not (self.known[bit >> 6] >> (bit & 63)) & 1:
            # Most lookups that miss end here, never reading a slot: at
            # 100,000 rules the slots are 8 MB, mostly out of the CPU cache.
            # The benchmark's calls that miss at their third token there:
            # median 681 -> 601 ns made once, 308 -> 292 at 5x (side by side).
            return NULL
        while True:
            edge = &self.edges[slot]
            if edge.parent == EMPTY:
                return NULL
            if edge.parent == parent and (edge.shape >> FLAG_BITS) == length:
                if edge.shape & PACKED:
                    if packs and edge.text == token.word:
                        return edge
                else:
                    k = 0
                    while k < length and self.chars[edge.text + k] == PyUnicode_READ(
                        kind, data, start + k
                    ):
                        k += 1
                    if k == length:
                        return edge
            slot = (slot + 1) & self.mask

    cdef inline tuple node_of(self, Edge* edge):
        """The frozen tuple of the node `edge` reaches."""
        return <tuple>self.node_at[edge - self.edges]


cdef class TokenFilter:
    """Whether a value's last token may be one of a set: a bit per `last_token` key, no false "no".

    The last tokens of a tool's tails (inner globs with a space in their
    tail): a value whose walk meets only tails looks in their maps only if
    this says its last token may be one. At 100,000 rules those tails end in
    every digit, so the test by last character walks.py makes let ~18% of the
    benchmark's calls through to a string and a dict lookup that missed
    (~100 ns each at 100,000 rules). Sixteen bits or more a token: at
    100,000 rules 5% of the bits are set, and a copy of the key in Python
    let through 4.4% of 100,000 random tokens that are no tail's last, and
    none of the suite's 2,707 calls with words no rule names or long
    commands (their last words are a dozen flags).
    """

    cdef u64* bits
    cdef u64 mask

    def __cinit__(self, lasts):
        cdef u64 size = 1024, h
        cdef str last
        cdef LastToken found
        lasts = list(lasts)
        while size < <u64>(16 * len(lasts)):  # (a length is never negative)
            size *= 2
        self.mask = size - 1
        self.bits = <u64*>PyMem_Calloc(size // 64, sizeof(u64))
        if self.bits == NULL:
            raise MemoryError()
        for last in lasts:  # (a token: no space in it)
            last_token(&found, PyUnicode_KIND(last), PyUnicode_DATA(last), len(last))
            h = found.key & self.mask
            self.bits[h >> 6] |= 1ULL << (h & 63)

    def __dealloc__(self):
        PyMem_Free(self.bits)

    cdef inline bint may_hold(self, u64 key) noexcept:
        """Whether the last token whose `last_token` key this is may be one of the set."""
        cdef u64 h = key & self.mask
        return (self.bits[h >> 6] >> (h & 63)) & 1


cdef bint full_match(dict patterns, compile_full, spec, str value) except -1:
    fullmatch = patterns.get(spec)
    if fullmatch is None:
        fullmatch = patterns[spec] = compile_full(spec)
    return fullmatch(value) is not None


cdef enum:
    SETTLED_SPECS = 6  # the most globs matching one value that a Settled holds
    SETTLED_FIRST = 64  # slots made for the first such value; doubled when half full
    SETTLED_SLOTS = 8192  # at most; then emptied when half full (fast.py's `settled` holds 4,096)


cdef struct Settled:
    void* verdict  # a reference held; NULL: an empty slot
    void* node
    Py_ssize_t count
    Py_ssize_t specs
    void* spec[SETTLED_SPECS]


cdef inline u64 settled_hash(void* node, Py_ssize_t count, Py_ssize_t specs, void** spec) noexcept:
    """The hash of a Settled key: the node, the count and each spec, by address."""
    cdef u64 h = mix(<u64>node ^ (<u64>count << 56))
    cdef Py_ssize_t i
    for i in range(specs):
        h = mix(h ^ <u64>spec[i])
    return h


cdef class SettledVerdicts:
    """The verdicts of values that inner globs match, by what settled them:
    the node the walk stopped at (by its name: the slot of the edge to it,
    or ROOT), its token count and the matching globs' specs, each by its
    address (held by the walk's frozen trie).

    fast.py keys them in a dict by (id(node), count, specs): for each such
    value the compiled walk made a list of the specs, a tuple of it, an int
    for the id, a tuple for the key, and hashed and compared that key,
    ~1,600 instructions of the ~4,700 such a call executed at 100,000 rules
    (callgrind, a value of each kind decided once before). Here the key is
    an array on the stack, looked up in a table of its own; a miss asks
    fast.py's `settle_globs`, as before, and keeps what it answers. The
    table is made on the first such value, 64 slots of 80 bytes, and grows
    as fast.py's dict would, up to 8,192 slots (640 KB): a walk per tool
    and per combination of grant sets in force may have one.
    """

    cdef Settled* slots
    cdef Py_ssize_t size  # slots, a power of two
    cdef Py_ssize_t used

    def __dealloc__(self):
        if self.slots != NULL:
            self.empty()
            PyMem_Free(self.slots)

    cdef void empty(self) noexcept:
        cdef Py_ssize_t i
        for i in range(self.size):
            if self.slots[i].verdict != NULL:
                Py_XDECREF(<PyObject*>self.slots[i].verdict)
                self.slots[i].verdict = NULL
        self.used = 0

    cdef void* find(self, void* node, Py_ssize_t count, Py_ssize_t specs, void** spec) noexcept:
        """The verdict kept for this key (a borrowed reference), or NULL."""
        cdef Settled* at
        cdef u64 slot, mask = self.size - 1
        cdef Py_ssize_t i
        if self.slots == NULL:
            return NULL
        slot = settled_hash(node, count, specs, spec) & mask
        while True:
            at = &self.slots[slot]
            if at.verdict == NULL:
                return NULL
            if at.node == node and at.count == count and at.specs == specs:
                i = 0
                while i < specs and at.spec[i] == spec[i]:
                    i += 1
                if i == specs:
                    return at.verdict
            slot = (slot + 1) & mask

    cdef void place(self, Settled* entry) noexcept:
        """`entry` copied to the first free slot from its hash's (it holds its reference)."""
        cdef u64 mask = self.size - 1
        cdef u64 slot = settled_hash(entry.node, entry.count, entry.specs, entry.spec) & mask
        while self.slots[slot].verdict != NULL:
            slot = (slot + 1) & mask
        self.slots[slot] = entry[0]
        self.used += 1

    cdef int keep(
        self, void* node, Py_ssize_t count, Py_ssize_t specs, void** spec, object verdict
    ) except -1:
        cdef Settled entry
        cdef Settled* old = self.slots
        cdef Py_ssize_t i, old_size = self.size
        if old == NULL or 2 * (self.used + 1) > self.size:
            if old != NULL and self.size >= SETTLED_SLOTS:
                self.empty()
            else:
                self.size = SETTLED_FIRST if old == NULL else 2 * old_size
                self.slots = <Settled*>PyMem_Calloc(self.size, sizeof(Settled))
                if self.slots == NULL:
                    self.slots, self.size = old, old_size
                    raise MemoryError()
                self.used = 0
                for i in range(old_size):
                    if old[i].verdict != NULL:
                        self.place(&old[i])
                PyMem_Free(old)
        entry.node, entry.count, entry.specs = node, count, specs
        for i in range(specs):
            entry.spec[i] = spec[i]
        Py_INCREF(verdict)
        entry.verdict = <void*>verdict
        self.place(&entry)
        return 0


cdef struct Glob:
    # One inner glob, as walks.matching tests it: the value starts with its
    # head, ends with its tail and is at least `least` long, or (`least` < 0)
    # its pattern matches the value in full.
    void* spec  # the glob's spec (a str), held by the frozen trie's chain or tails
    int least
    int head_len
    int tail_len
    int chars_at  # where its head's characters start in the run's; its tail's follow


cdef struct GlobRun:
    # Globs tested in order, in one block: this, the globs, their characters
    # (a byte each where all are Latin-1, else a Py_UCS4 each). In a tails
    # map, the run of one last token, whose characters come first.
    Py_ssize_t count
    int wide
    int last_len  # a tails map's run: its last token's length, its characters at 0
    Glob* globs
    void* chars


cdef struct TailSlot:
    u64 key  # the last token's `last_token` key
    GlobRun* run  # NULL: an empty slot


cdef struct TailMap:
    u64 mask
    TailSlot* slots  # (in the same block)


cdef struct NodeGlobs:
    # A node's inner globs: its chain, all groups in order (NULL if empty),
    # and its tails map (NULL if empty).
    GlobRun* chain
    TailMap* tails


cdef inline bint same_chars(
    int kind, void* data, Py_ssize_t at, void* chars, int wide, Py_ssize_t offset, Py_ssize_t length
) noexcept:
    """Whether the value's characters from `at` are the run's from `offset`, `length` of them."""
    cdef Py_ssize_t i
    cdef const unsigned char* narrow
    if not wide:
        narrow = <const unsigned char*>chars + offset
        if kind == 1:
            return memcmp(<const unsigned char*>data + at, narrow, length) == 0
        for i in range(length):
            if PyUnicode_READ(kind, data, at + i) != narrow[i]:
                return False
        return True
    for i in range(length):
        if PyUnicode_READ(kind, data, at + i) != (<Py_UCS4*>chars)[offset + i]:
            return False
    return True


cdef Py_ssize_t run_matches(
    GlobRun* run,
    str value,
    int kind,
    void* data,
    Py_ssize_t n,
    Py_ssize_t k,
    void** found,
    list every,
    dict patterns,
    compile_full,
) except -1:
    """walks.matching over one run: `k` globs matched before it, the new
    total returned; the specs of the first SETTLED_SPECS in `found`, and
    with `every` (a list) each one appended."""
    cdef Py_ssize_t i
    cdef Glob* glob
    for i in range(run.count):
        glob = &run.globs[i]
        if not (
            n >= glob.least  # (checked first: it reads no characters)
            and glob.head_len <= n
            and glob.tail_len <= n
            and same_chars(kind, data, 0, run.chars, run.wide, glob.chars_at, glob.head_len)
            and same_chars(
                kind, data, n - glob.tail_len, run.chars, run.wide,
                glob.chars_at + glob.head_len, glob.tail_len,
            )
        ):
            continue
        if glob.least < 0 and not full_match(patterns, compile_full, <object>glob.spec, value):
            continue
        if k < SETTLED_SPECS:
            found[k] = glob.spec
        if every is not None:
            every.append(<object>glob.spec)
        k += 1
    return k


cdef GlobRun* tail_run(
    TailMap* tails, u64 key, int kind, void* data, Py_ssize_t start, Py_ssize_t n
) noexcept:
    """The run of the tails whose last token is value[start:n], or NULL."""
    cdef u64 slot = key & tails.mask
    cdef GlobRun* run
    while True:
        run = tails.slots[slot].run
        if run == NULL:
            return NULL
        if (
            tails.slots[slot].key == key
            and run.last_len == n - start
            and same_chars(kind, data, start, run.chars, run.wide, 0, n - start)
        ):
            return run
        slot = (slot + 1) & tails.mask


cdef Py_ssize_t put_chars(GlobRun* run, Py_ssize_t at, str text) noexcept:
    """`text`'s characters into the run's from `at`; where they end."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t i
    for i in range(len(text)):
        if run.wide:
            (<Py_UCS4*>run.chars)[at + i] = PyUnicode_READ(kind, data, i)
        else:
            (<unsigned char*>run.chars)[at + i] = <unsigned char>PyUnicode_READ(kind, data, i)
    return at + len(text)


cdef class GlobIndex:
    """Every node's inner globs, in blocks of C memory: what the glob walk
    reads for a value that inner globs may match, in place of the node's
    frozen tuple, its chain's tuples, its tails dict and the globs' strings.

    Read that way, such a value at 100,000 rules touched many cache lines
    that no other call shares (the node's tuple, the chain, each group and
    glob, the tails map's keys and entries, each head and tail string);
    here, a node's entry in `at`, the slot of its last token in the tails
    map, and a run or two of globs with their characters. Values made from
    that policy's inner globs, each decided before, under callgrind with a
    2 MB cache: 18.3 -> 11.2 lines missed and 3,114 -> 2,015 instructions a
    value (the rest is the call's own dict and string, the token table,
    the settled verdict and the verdict). Chains, tails maps and the maps' groups are shared
    between nodes as the frozen trie shares them, and built once each.
    """

    cdef NodeGlobs* at  # by the TokenTable's slot
    cdef NodeGlobs root
    cdef list blocks  # every block's address, to free
    cdef TokenTable table  # holds the specs the runs point at

    def __cinit__(self, TokenTable table, tuple root):
        cdef Py_ssize_t i, size = table.mask + 1
        cdef dict runs = {}, maps = {}
        self.blocks = []
        self.table = table
        self.at = <NodeGlobs*>self.alloc(size * sizeof(NodeGlobs))
        self.root = self.node_globs(root, runs, maps)
        for i in range(size):
            if table.edges[i].parent != EMPTY and not table.edges[i].shape & NO_GLOBS:
                self.at[i] = self.node_globs(<tuple>table.node_at[i], runs, maps)

    def __dealloc__(self):
        if self.blocks is not None:
            for address in self.blocks:
                PyMem_Free(PyLong_AsVoidPtr(address))

    cdef void* alloc(self, size_t size) except NULL:
        cdef void* block = PyMem_Calloc(1, size if size else 1)
        if block == NULL:
            raise MemoryError()
        self.blocks.append(PyLong_FromVoidPtr(block))
        return block

    cdef NodeGlobs node_globs(self, tuple node, dict runs, dict maps) except *:
        # (`runs` and `maps` by the chain's and the map's address: nodes share them)
        cdef NodeGlobs out
        cdef object chain = node[3], tails = node[4], address, got
        out.chain, out.tails = NULL, NULL
        if chain:
            address = PyLong_FromVoidPtr(<void*>chain)
            got = runs.get(address)
            if got is None:
                got = runs[address] = PyLong_FromVoidPtr(
                    self.run([entry for group in chain for entry in group], "")
                )
            out.chain = <GlobRun*>PyLong_AsVoidPtr(got)
        if tails:
            address = PyLong_FromVoidPtr(<void*>tails)
            got = maps.get(address)
            if got is None:
                got = maps[address] = PyLong_FromVoidPtr(self.tail_map(tails, runs))
            out.tails = <TailMap*>PyLong_AsVoidPtr(got)
        return out

    cdef GlobRun* run(self, list entries, str last) except NULL:
        """A run of `entries` ((head, tail, spec, least) each), `last` first in its characters."""
        cdef Py_ssize_t total = len(last), at, i
        cdef bint wide = PyUnicode_KIND(last) != 1  # (kind 1: every character below 256)
        cdef str head, tail
        cdef tuple entry
        cdef GlobRun* run
        cdef Glob* glob
        cdef char* block
        for entry in entries:
            head, tail = entry[0], entry[1]
            total += len(head) + len(tail)
            wide = wide or PyUnicode_KIND(head) != 1 or PyUnicode_KIND(tail) != 1
        if total >= 2**31:
            raise OverflowError("inner globs of 2**31 characters")
        block = <char*>self.alloc(
            sizeof(GlobRun) + len(entries) * sizeof(Glob) + total * (4 if wide else 1)
        )
        run = <GlobRun*>block
        run.count, run.wide, run.last_len = len(entries), wide, len(last)
        run.globs = <Glob*>(block + sizeof(GlobRun))
        run.chars = <void*>(block + sizeof(GlobRun) + len(entries) * sizeof(Glob))
        at = put_chars(run, 0, last)
        for i in range(len(entries)):
            entry = <tuple>entries[i]
            head, tail = entry[0], entry[1]
            glob = &run.globs[i]
            glob.spec = <void*>entry[2]
            glob.least = entry[3]
            glob.head_len, glob.tail_len, glob.chars_at = len(head), len(tail), at
            at = put_chars(run, put_chars(run, at, head), tail)
        return run

    cdef TailMap* tail_map(self, dict tails, dict runs) except NULL:
        """A tails map ({last token: (distinct tails, entries)}) as a table by
        the token's key. Its runs are shared with the other maps that hold
        the same group (`runs`, by the last token and the group's address;
        the chains' runs are there by the chain's address): a node's map is its
        parent's plus its own, so at 100,000 rules 484 maps held 53,845
        last tokens and 7,113 groups; a run made per token took ~10 ms more
        of the walk's build, and 3 MB more."""
        cdef u64 size = 8, slot
        cdef LastToken found
        cdef str last
        cdef TailMap* out
        cdef GlobRun* run
        cdef char* block
        while size < <u64>(2 * len(tails)):
            size *= 2
        block = <char*>self.alloc(sizeof(TailMap) + size * sizeof(TailSlot))
        out = <TailMap*>block
        out.mask = size - 1
        out.slots = <TailSlot*>(block + sizeof(TailMap))
        for last, group in tails.items():
            shared = (last, PyLong_FromVoidPtr(<void*>group))
            got = runs.get(shared)
            if got is None:
                got = runs[shared] = PyLong_FromVoidPtr(self.run(list(group[1]), last))
            run = <GlobRun*>PyLong_AsVoidPtr(got)
            last_token(&found, PyUnicode_KIND(last), PyUnicode_DATA(last), len(last))
            slot = found.key & out.mask
            while out.slots[slot].run != NULL:
                slot = (slot + 1) & out.mask
            out.slots[slot].key = found.key
            out.slots[slot].run = run
        return out


def glob_walker(
    str field,
    tuple root,
    Py_ssize_t depth,
    lasts,
    none,
    settle_globs,
    compile_full,
    field_value,
):
    """walks.glob_walker's walk (the token trie; see its notes there).

    `lasts`: the last tokens of the tool's tails, where walks.py's walk takes
    their last characters (`tail_ends`). `settle_globs(node, count, specs)`:
    the verdict of a value that inner globs match (fast.py's, which keeps
    them by that key); what it answers is kept here too (`SettledVerdicts`).
    `compile_full(spec)`: a glob's compiled `fullmatch`, for the globs that
    are matched in full (kept by spec: a tool's globs are the policy's).
    """

    cdef TokenTable table = TokenTable(root, lasts)
    cdef TokenFilter tail_filter = TokenFilter(lasts)
    cdef dict patterns = {}
    cdef int root_flags = node_flags(root)
    cdef SettledVerdicts kept_verdicts = SettledVerdicts()
    cdef GlobIndex index = GlobIndex(table, root)

    def decide(args):
        cdef Py_ssize_t pos, end, n, count, at
        cdef int kind, flags
        cdef void* data
        cdef Token token
        cdef LastToken last
        cdef Edge* edge
        cdef Edge* found
        cdef bint ended = False  # the walk's last edge took the value's last token, whole
        cdef u64 seed  # the next token's: the hash of the tokens so far
        cdef bint keyed = False  # `last` holds the value's last token
        cdef tuple node, specs
        cdef list every
        cdef str value
        cdef object got, verdict
        cdef void* spec[SETTLED_SPECS]  # the specs of the globs that match, by address
        cdef void* kept
        cdef Py_ssize_t matched, name
        cdef NodeGlobs* globs
        cdef GlobRun* run = NULL  # the tails' run under the value's last token
        if type(args) is dict:
            got = (<dict>args).get(field)
            if type(got) is str:
                value = <str>got
                kind = PyUnicode_KIND(value)
                data = PyUnicode_DATA(value)
                edge = NULL  # the edge to the node reached; NULL: the root
                at = ROOT  # the node's name: the slot of the edge to it
                n = len(value)
                pos = 0
                count = 0  # tokens taken so far
                seed = ROOT_SEED
                while True:
                    # `value.split(" ", depth)`, one token at a time, hashed as
                    # it is scanned: past `depth` tokens the rest is one token,
                    # as split leaves it.
                    scan_token(&token, seed, kind, data, pos, n, count >= depth)
                    end = token.end
                    count += 1
                    found = table.find(&token, at, kind, data, pos)
                    if found == NULL:
                        verdict = root[2] if edge == NULL else <object>edge.past
                        break
                    edge = found
                    if end == n:
                        verdict = <object>edge.end
                        # (a token scanned to the end, past `depth`, has no edge:
                        # this one was scanned up to a space, and is whole)
                        ended = True
                        break
                    if edge.shape & LEAF:  # the next token would miss
                        verdict = <object>edge.past
                        break
                    # The verdict of a value that misses below here, fetched
                    # while the next token is scanned and sought: a rule's
                    # own line where a flag follows its words. 100,000 rules,
                    # calls that hit a rule, two `benchmarks.ab` runs: 576 ->
                    # 513 and 596 -> 563 ns made once, 191 -> 183 and 195 ->
                    # 185 at 5x; N=10 the same within 1 ns.
                    prefetch(edge.past)
                    at = edge - table.edges
                    seed = token.hash
                    pos = end + 1
                flags = root_flags if edge == NULL else edge.shape
                if flags & NO_GLOBS:
                    return verdict
                if edge != NULL and not flags & TAILS_ONLY:
                    # Where the node's globs lie, fetched while the last
                    # token is found. Not where only tails are on the path:
                    # there the filter turns most calls away before the node
                    # is read, and fetching it for them read a cold line for
                    # nothing (measured when it was the node's tuple, read
                    # from `node_at`: 100,000 rules, calls that hit a rule,
                    # 5x, 2-15 ns less in four runs of five; see the commit).
                    prefetch(&index.at[edge - table.edges])
                if flags & TAILS_ONLY:
                    # Only tails on the path (see walks.py): the last token
                    # is tested before the node is read: at 100,000 rules
                    # most calls stop here, and the node's tuple and its
                    # tails dict are memory no other call touches. Where
                    # the walk took the last token, its edge says exactly
                    # whether some tail ends in it (TAIL_LAST), with no
                    # second scan and no line of the filter read.
                    if ended:
                        if not flags & TAIL_LAST:
                            return verdict
                    else:
                        last_token(&last, kind, data, n)
                        keyed = True
                        if not tail_filter.may_hold(last.key):
                            return verdict
                # walks.glob_matches: the node's chain (empty where only tails
                # are on the path), then the tails under the value's last
                # token, read from the index's C blocks (see GlobIndex).
                name = ROOT if edge == NULL else edge - table.edges
                globs = &index.root if edge == NULL else &index.at[name]
                matched = 0
                if globs.chain != NULL:
                    matched = run_matches(
                        globs.chain, value, kind, data, n, 0, spec, None, patterns, compile_full
                    )
                if globs.tails != NULL:
                    if not keyed:
                        last_token(&last, kind, data, n)
                    run = tail_run(globs.tails, last.key, kind, data, last.start, n)
                    if run != NULL:
                        matched = run_matches(
                            run, value, kind, data, n, matched, spec, None, patterns, compile_full
                        )
                if not matched:
                    return verdict
                # The split's token count (`value.split(" ", depth)`), which
                # settled verdicts are keyed by: up to depth + 1.
                count = 1
                at = 0
                while at < n and count <= depth:
                    if PyUnicode_READ(kind, data, at) == 32:
                        count += 1
                    at += 1
                if matched <= SETTLED_SPECS:
                    kept = kept_verdicts.find(<void*>name, count, matched, spec)
                    if kept != NULL:
                        return <object>kept
                    specs = PyTuple_New(matched)
                    for at in range(matched):
                        Py_INCREF(<object>spec[at])
                        PyTuple_SET_ITEM(specs, at, <object>spec[at])
                else:  # every spec, in order, from the runs again
                    every = []
                    if globs.chain != NULL:
                        run_matches(
                            globs.chain, value, kind, data, n, 0, spec, every, patterns,
                            compile_full,
                        )
                    if run != NULL:
                        run_matches(
                            run, value, kind, data, n, 0, spec, every, patterns, compile_full
                        )
                    specs = tuple(every)
                node = root if edge == NULL else table.node_of(edge)
                verdict = settle_globs(node, count, specs)
                if matched <= SETTLED_SPECS:
                    kept_verdicts.keep(<void*>name, count, matched, spec, verdict)
                return verdict
        if type(args) is dict and got is None:
            return none  # absent or null: field_value's answer, without its call
        return none if field_value(args, field) is None else None

    return decide


def prefix_walker(str field, tuple root, dict exact, none, field_value):
    """walks.prefix_walker's walk (the character trie)."""
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
        if type(args) is dict and got is None:
            return none  # absent or null: field_value's answer, without its call
        return none if field_value(args, field) is None else None

    return decide


def key_walker(str field, dict exact, dict by_key, base, none, field_value):
    """walks.probe_walker's walk, with no string made: the longest prefix key
    that starts the value.

    Each key is an edge of its own from the root of a TokenTable, and the
    value is hashed once, a character at a time, up to the longest key: at
    each length some key has, the hash so far is looked up there (mostly in
    the table's bit array alone), and the last key found is the longest.
    Python's way, a slice, its hash and a dict lookup per length, cost ~40-50
    ns a length, and a value went through up to four (see the commit).
    `by_key`: each key's settled verdict; `base`: the verdict of a string
    value that starts none.
    """
    missing = object()
    cdef dict leaf = {}  # (no key has children: one empty dict for all)
    cdef dict keys = {key: (None, got, got, None, None, leaf) for key, got in by_key.items()}
    cdef TokenTable table = TokenTable((None, None, None, None, None, keys))
    cdef Py_ssize_t longest = max(map(len, by_key), default=0)
    # marks[k]: 1 if some key is k characters long
    cdef bytearray found_lengths = bytearray(longest + 1)
    for key in by_key:
        found_lengths[len(key)] = 1
    cdef bytes marks = bytes(found_lengths)

    def decide(args):
        cdef Py_ssize_t i, limit
        cdef int kind
        cdef void* data
        cdef Token token
        cdef Edge* edge
        cdef Edge* best = NULL
        cdef const unsigned char* mark = marks
        cdef const unsigned char* latin
        cdef Hashing state
        cdef Py_UCS4 ch
        cdef str value
        cdef object got, hit
        if type(args) is dict:
            got = (<dict>args).get(field)
            if type(got) is str:
                value = <str>got
                hit = exact.get(value, missing)
                if hit is not missing:
                    return hit
                kind = PyUnicode_KIND(value)
                data = PyUnicode_DATA(value)
                latin = <const unsigned char*>data
                limit = min(len(value), longest)
                state.h, state.word, state.shift, state.high = ROOT_SEED, 0, 0, 0
                i = 0
                while True:
                    if mark[i]:  # a key this long: is it the value's first i characters?
                        token.end, token.hash = i, mix(state.h ^ state.word)
                        token.word, token.high = state.word, state.high
                        edge = table.find(&token, ROOT, kind, data, 0)
                        if edge != NULL:
                            best = edge
                    if i == limit:
                        break
                    hash_char(&state, latin[i] if kind == 1 else PyUnicode_READ(kind, data, i))
                    i += 1
                return base if best == NULL else <object>best.end
        if type(args) is dict and got is None:
            return none  # absent or null: field_value's answer, without its call
        return none if field_value(args, field) is None else None

    return decide


cdef dict scope_walks_of(object by_scope, object scope):
    """The walks of `scope`'s lists while grant sets are in force, or None.

    None when there are no lists to read (`by_scope` None), the scope's are
    not built yet, or the scope is unhashable: the Python method, which
    builds them or blocks the call, decides then.
    """
    if by_scope is None:
        return None
    try:
        lists = (<dict>by_scope).get(scope)
    except Exception:
        return None
    return None if lists is None else lists.fast


def decide_front(dict walks, list sets, dict by_scope, decide, decide_rest):
    """Table.decide, compiled for its common call: one subject, unconfined.

    `walks`: the policy's walks by tool (the table's `_fast`), which decide
    while no grant set is in force; `sets`: its grant sets in force (its
    `_sets`, changed in place; a lookup of the attribute on each call cost
    ~15 ns of the ~45 this adds to a walk); `by_scope`: while sets are in
    force, the lists each scope decides against (its `_by_scope`, changed
    in place), whose `fast` holds that scope's walks; `decide`: the table's
    own method, which takes every other call, builds a scope's lists and a
    tool's walk on their first call, and blocks on a fault (a walk that
    raises is run there again); `decide_rest(tool, args, confined,
    subjects, scope, cwd)`: what that method does when the walk leaves the
    call undecided.
    """

    def front(tool, args, confined=None, subjects=None, scope=None, cwd=None):
        """The verdict for one call; never raises. See `Table.decide`, whose front this is."""
        cdef object walk, verdict
        cdef dict scope_walks = walks
        if subjects is None and confined is None:
            if sets:
                # With a set in force, the Python method cost ~0.2 us more
                # than this (`python -m benchmarks.grant_sets`).
                scope_walks = scope_walks_of(by_scope, scope)
                if scope_walks is None:
                    return decide(tool, args, confined, subjects, scope, cwd)
            try:
                got = scope_walks.get(tool)
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


def batch_front(
    dict walks, sets, by_scope, owner, decide_batch, twins, Py_ssize_t failed
):
    """batch.make_batch's `decide_batch`, compiled for its common batch.

    A list of plain {"tool", "args"} calls of tools whose walks decide them:
    each walk once, each verdict sorted as it comes (an allowed call is
    held when a sibling defers or failed), as the Python loop does. Any
    other batch, or one a walk leaves undecided or raises on, is
    `decide_batch`'s, from the start (the walks give the same verdicts
    again). `sets`: the owner's grant sets, a list it changes in place, or
    None to read `owner._sets` on each batch; `by_scope`: while sets are in
    force, the lists each scope decides against (see `decide_front`), or
    None to leave such batches to `decide_batch`; `twins`: its
    batch.HeldTwins (a dict, read here without a method call).
    """

    def front(calls, scope=None):
        """Decide every call of one model response before any runs. See `Table.decide_batch`."""
        cdef list verdicts
        cdef dict call
        cdef dict scope_walks = walks
        cdef bint holds = False, allows = False, plain = True
        cdef Py_ssize_t i, n
        cdef object got, verdict, action, held
        if type(calls) is not list:
            return decide_batch(calls, scope)
        if owner._sets if sets is None else sets:
            # The walks of the scope's lists, as `decide` takes them.
            scope_walks = scope_walks_of(by_scope, scope)
            if scope_walks is None:
                return decide_batch(calls, scope)
        # Typed reads throughout: a verdict is a tuple subclass, which
        # Cython's generic subscript does not take by its fast path.
        n = len(<list>calls)
        verdicts = [None] * n
        try:
            for i in range(n):
                got = (<list>calls)[i]
                if type(got) is not dict or len(<dict>got) != 2:
                    plain = False
                    break
                call = <dict>got
                verdict = scope_walks[call["tool"]](call["args"])
                if not isinstance(verdict, tuple):  # None: the walk leaves it undecided
                    plain = False
                    break
                action = (<tuple>verdict)[0]
                if action == "allow":
                    allows = True
                elif action == "defer" or (<tuple>verdict)[failed]:
                    holds = True
                verdicts[i] = verdict
        except Exception:
            plain = False
        if not plain:
            return decide_batch(calls, scope)
        if holds and allows:
            # A second pass over the few verdicts, not a list of the allowed
            # ones built on the way: in C it is the cheaper of the two.
            for i in range(n):
                verdict = verdicts[i]
                if (<tuple>verdict)[0] == "allow":
                    # The key is id(verdict), made without calling `id`.
                    held = (<dict>twins).get(PyLong_FromVoidPtr(<void*>verdict))
                    verdicts[i] = held if held is not None else twins.twin(verdict)
        return verdicts

    return front
