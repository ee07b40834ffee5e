"""Path and domain matching: totality, and the normalisation rules on their own."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policyc.runtime.domains import domain_matches, url_host
from policyc.runtime.paths import (
    EVERY_FILE,
    NO_GIT,
    NO_GIT_OR_PACKAGES,
    PathError,
    normalize_path,
    path_matches,
    resolve_base,
)

anything = st.one_of(
    st.text(max_size=20), st.none(), st.integers(), st.lists(st.text(max_size=3), max_size=2)
)


@settings(max_examples=400, deadline=None)
@given(spec=anything, value=anything, cwd=anything, home=anything)
def test_the_matchers_are_total(spec, value, cwd, home):
    assert path_matches(spec, value, cwd, home) in (True, False)
    assert domain_matches(spec, value) in (True, False)
    assert url_host(value) is None or isinstance(url_host(value), str)


@settings(max_examples=400, deadline=None)
@given(path=st.text(alphabet="ab./~ ", max_size=12))
def test_normalised_paths_are_absolute_and_clean(path):
    try:
        out = normalize_path(path, "/repo", "/home/u")
    except PathError:
        return
    assert (
        out.startswith("/")
        and "/./" not in out + "/"
        and "/../" not in out + "/"
        and "//" not in out
    )


@pytest.mark.parametrize(
    "path,expected",
    [
        ("a/../b", "/repo/b"),
        ("../../../x", "/x"),
        ("~/x/./y", "/home/u/x/y"),
        ("//etc///passwd", "/etc/passwd"),
        ("/", "/"),
    ],
)
def test_normalize_path(path, expected):
    assert normalize_path(path, "/repo", "/home/u") == expected


def test_symlinks_are_followed_only_on_request(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    target = str(tmp_path / "link" / "f")
    assert normalize_path(target, None, None) == target
    with pytest.raises(PathError, match="cannot resolve"):
        normalize_path(target, None, None, follow_symlinks=True)  # f does not exist: fail closed
    (tmp_path / "real" / "f").write_text("x")
    assert normalize_path(target, None, None, follow_symlinks=True) == str(tmp_path / "real" / "f")


@pytest.mark.parametrize("form", ["artifact", "generated module"])
def test_a_call_through_a_symlink_is_decided_again_when_the_link_moves(tmp_path, form):
    # Split calls' verdicts are kept by their value, but not where resolving
    # the value reads the disk: the same path may lead elsewhere next time.
    # `load`'s options reach a generated module's table as an artifact's.
    import policyc
    from policyc.cli import main

    for name in ("open", "secret"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "f").write_text("x")
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "open")
    bundle = tmp_path / "t.policy"
    bundle.write_text(
        f"default allow\ntool read path(file_path)\ndeny read({tmp_path}/secret/**) read(~/k)\n"
    )
    if form == "artifact":
        assert main(["compile", str(bundle), "-o", str(tmp_path / "t.json")]) == 0
        artifact = tmp_path / "t.json"
    else:
        assert main(["compile", str(bundle), "--emit", "python", "-o", str(tmp_path / "t.py")]) == 0
        artifact = tmp_path / "t.py"
    call = {"file_path": str(link / "f")}
    following = policyc.load(artifact, follow_symlinks=True, home="/home/u")
    assert following.decide("read", call).action == "allow"
    link.unlink()
    link.symlink_to(tmp_path / "secret")
    assert following.decide("read", call).action == "block"
    assert following.decide("read", {"file_path": "/home/u/k"}).action == "block"
    assert policyc.load(artifact).decide("read", call).action == "allow"  # the link's own path


def test_base_anchors_resolve_against_the_source_folder():
    assert resolve_base("@/conf/**", "/etc/agent/settings.json") == "/etc/agent/conf/**"
    assert resolve_base("!@/conf/x", "/etc/agent/settings.json") == "!/etc/agent/conf/x"
    assert resolve_base("@/x", "") is None
    assert resolve_base("./x", "") == "./x"


@pytest.mark.parametrize(
    "value,host",
    [
        ("https://User:pw@EXAMPLE.com.:8443/a?b#c", "example.com"),
        ("example.com", "example.com"),
        ("http://b\u00fccher.de/", "xn--bcher-kva.de"),
        ("https://[::1]:80/", "::1"),
        ("https://", None),
        ("javascript:alert(1)", None),
        ("https://a b.com", None),
        # As the WHATWG URL standard (Node's URL, the fetchers) reads them:
        ("https://evi%6C.com/", "evil.com"),  # percent-decoded
        ("https://evil\u3002com/", "evil.com"),
        ("http://2852039166/", "169.254.169.254"),  # an address written as a number
        ("http://0xA9FEA9FE/", "169.254.169.254"),
        ("http://0251.0376.0251.0376/", "169.254.169.254"),
        ("http://169.254.43518/", "169.254.169.254"),
        ("http://0x7f.1/", "127.0.0.1"),
        ("http://[::ffff:a9fe:a9fe]/", "169.254.169.254"),  # IPv4-mapped
        ("http://[0:0:0:0:0:0:0:1]/", "::1"),
        ("http://0x0x0810/", "0x0x0810"),  # not a number: a name
        # Refused by the standard, or read apart by IDNA 2003 and the standard:
        ("http://1.2.3.4.5/", None),
        ("http://256.1.1.1/", None),
        ("http://09.1/", None),
        ("http://4294967296/", None),
        ("https://evil.com%00.good.com/", None),
        ("http://ev%FFil.com/", None),
        ("http://[fe80::1%25eth0]/", None),
        ("https://fa\u00df.de/", None),
        ("http://a..b/", None),
    ],
)
def test_url_host(value, host):
    assert url_host(value) == host


def test_a_bundle_source_anchors_at_its_own_folder():
    import policyc
    from policyc.errors import PolicyErrors

    text = (
        "default allow\ntool read path(file_path) split path\n"
        'source team rank 1 trusted path "/etc/agent/team.policy" {\n  deny read(@/keys/**)\n}\n'
    )
    table = policyc.load(policyc.compile_text(text, "t.policy"))
    assert table.decide("read", {"file_path": "/etc/agent/keys/a"}).action == "block"
    assert table.decide("read", {"file_path": "/repo/keys/a"}, cwd="/repo").action == "allow"
    with pytest.raises(PolicyErrors) as info:
        policyc.compile_text(
            "default allow\ntool read path(file_path)\ndeny read(@/keys/**)\n", "t.policy"
        )
    assert info.value.kind == "no_base_dir"


@settings(max_examples=300, deadline=None)
@given(
    anchor=st.sampled_from(["./", "", "/", "~/", "/r/a/"]),
    names=st.lists(
        st.sampled_from(["..", ".", "a", "r", "h", ".env", "*", "**", "a*"]), min_size=1, max_size=5
    ),
    slash=st.booleans(),
    cwd=st.sampled_from(["/r", "/r/a", "/"]),
    broad=st.booleans(),
)
def test_dot_and_dotdot_names_fold_into_the_anchor(anchor, names, slash, cwd, broad):
    """`Read(../secrets/**)` never matched: the paths decided hold no `..`.
    A pattern's `.` and `..` names are folded as `posixpath.normpath` folds
    the anchored text (a `..` above the root stays at it); one after a
    wildcard is refused at build (`dotdot_problem`). Checked against every
    path of up to three names."""
    import posixpath

    from policyc.runtime.paths import dotdot_problem, path_anchor

    body = "/".join(names) + ("/" if slash and names else "")
    spec = anchor + body
    if path_anchor(spec) == "anywhere":
        spec = "./" + body  # (`x`, `**/x`: at any depth, refused with a `..`; below)
    if dotdot_problem(spec) is not None:
        assert any(c in n for k, n in enumerate(names) for c in "*?" if ".." in names[k:])
        return
    home = "/h"
    start = {"./": cwd, "": cwd, "/": "/", "~/": home, "/r/a/": "/"}[anchor]
    names = ["r", "a", *names] if anchor == "/r/a/" else names  # (its names are the pattern's)
    folded = posixpath.normpath(start + "/" + "/".join(names))
    left = 0  # names the `..`s leave; none: the folder reached and all under it
    for name in names:
        left = max(left - 1, 0) if name == ".." else left + (name != ".")
    if left == 0:
        specs = [folded, folded.rstrip("/") + "/**"]
    else:
        specs = [folded + ("/" if slash else "")]
    for path in ["/", *_paths_below("/", 3, ["r", "a", "h", ".env", "ab"])]:
        got = path_matches(spec, path, cwd, home, broad)
        want = any(path_matches(s, path, cwd, home, broad) for s in specs)
        assert got == want, (spec, cwd, path)


def test_a_dotdot_after_a_wildcard_is_a_build_error_with_its_place():
    import policyc
    from policyc.errors import PolicyErrors

    text = "default allow\ntool read path(file_path)\ndeny read(./src/*/../.env)\n"
    with pytest.raises(PolicyErrors) as info:
        policyc.compile_text(text, "t.policy")
    assert info.value.kind == "bad_path"
    assert str(info.value).startswith("t.policy:3:")
    for spec in ["..", "**/../x", "./a*/../x", "/**/../x"]:
        text = f"default allow\ntool read path(file_path)\ndeny read({spec})\n"
        with pytest.raises(PolicyErrors, match="bad_path"):
            policyc.compile_text(text, "t.policy")
    assert path_matches("**/./.env", "/r/a/.env") and path_matches("././/a", "/r/a", "/r")
    table = policyc.load(
        policyc.compile_text(
            "default allow\ntool read path(file_path)\ndeny read(../s/**)\n", "t.policy"
        )
    )
    assert table.decide("read", {"file_path": "/s/k"}, cwd="/repo").action == "block"
    assert table.decide("read", {"file_path": "/repo/s/k"}, cwd="/repo").action == "allow"


@settings(max_examples=400, deadline=None)
@given(
    pattern=st.lists(
        st.sampled_from(["a", "b", ".", "*", "?", "[ab]", "[!a]", "[a-c]", "[]a]", "[", "]"]),
        max_size=5,
    ).map("".join),
    text=st.text(alphabet="abcd.[]", max_size=6),
)
def test_a_segment_pattern_matches_as_fnmatch_does(pattern, text):
    """gitignore's bracket expressions (`Read(**/id_[rd]sa)`) were compared
    as literal text: a deny that never matched. A segment's `*`, `?` and
    `[…]` (`!` negating, ranges, a `]` first a member, a `[` with no `]` a
    literal) match as fnmatch's do, on a name with no `/`."""
    from fnmatch import fnmatchcase

    from policyc.runtime.paths import _wild

    assert _wild(pattern, text) == fnmatchcase(text, pattern), (pattern, text)


def test_a_bracket_expression_in_a_path_rule_matches():
    import policyc

    text = (
        "default allow\ntool read path(file_path) split path\n"
        "deny read(~/.ssh/id_[rd]sa) read(**/*.[pP][eE][mM]) read(./.env[.-]*)\n"
    )
    table = policyc.load(policyc.compile_text(text, "t.policy"), home="/home/u")
    for path, action in [
        ("/home/u/.ssh/id_rsa", "block"),
        ("/home/u/.ssh/id_ed25519", "allow"),
        ("/repo/certs/k.PEM", "block"),
        ("/repo/.env.local", "block"),
        ("/repo/.envrc", "allow"),
    ]:
        got = table.decide("read", {"file_path": path}, cwd="/repo").action
        assert got == action, path


def test_a_trailing_slash_means_the_folder_and_everything_under_it():
    assert path_matches("./build/", "/repo/build/x/y.o", "/repo")
    assert path_matches("/etc/", "/etc/passwd")
    assert not path_matches("/etc/", "/etcetera")


def test_patterns_with_many_stars_stay_linear_on_long_input():
    """A backtracking regex would take exponential time here; these return at once."""
    from policyc.runtime.matchers import compile_glob

    assert compile_glob("*a*a*a*a*b").fullmatch("a" * 50_000) is None
    assert compile_glob("* && * && * && *x").fullmatch(" && ".join(["a"] * 5_000)) is None
    assert not path_matches("*a*a*a*a*b", "/x/" + "a" * 50_000)
    assert not path_matches("/**/x/**/y/**/z", "/" + "a/" * 5_000)
    assert path_matches("/**/x/**/y/**/z", "/" + "a/" * 5_000 + "x/y/z")


@pytest.mark.parametrize(
    "declared",
    [
        "tool read path(file_path)\ntool fetch domain(url)\n",
        "tool read path(file_path) split path\ntool fetch domain(url) split url\n",
    ],
)
def test_path_and_domain_matchers_resolve_their_value_with_or_without_split(declared):
    """Read raw, `..`, `~` and relative paths slipped past a deny rule, and a rule
    anchored at an unknown working directory matched nothing; a matcher implies
    its splitter, so both declarations decide alike and fail closed."""
    import policyc
    from policyc.grammar import parse_bundle
    from policyc.grammar.printer import format_policy
    from policyc.runtime import load

    text = (
        "default allow\n"
        + declared
        + "deny read(/etc/**) read(~/.ssh/**) read(./secret/**) fetch(evil.example)\n"
        + "allow read fetch\n"
    )
    table = load(policyc.compile_text(text, "t.policy"), home="/home/u")
    cwd = "/repo"
    assert table.decide("read", {"file_path": "/repo/../etc/shadow"}, cwd=cwd).action == "block"
    assert table.decide("read", {"file_path": "~/.ssh/id_rsa"}, cwd=cwd).action == "block"
    assert table.decide("read", {"file_path": "secret/key"}, cwd=cwd).action == "block"
    assert table.decide("read", {"file_path": "src/a.py"}, cwd=cwd).action == "allow"
    unknown = table.decide("read", {"file_path": "/repo/secret/key"})
    assert unknown.action == "block" and unknown.failed
    assert table.decide("fetch", {"url": "https://EVIL.example:443/x"}).action == "block"
    assert table.decide("fetch", {"url": "javascript:alert(1)"}).failed
    bundle = parse_bundle(text, "t.policy")
    assert parse_bundle(format_policy(bundle), "t.policy") == bundle
    assert [t.split for t in bundle.tools] == ["path", "url"]


def test_a_folder_search_is_held_to_the_rules_on_the_files_under_it():
    """`split tree` (Claude Code's Grep and Glob): a search reads every file
    under its folder, which a deny on the folder's contents does not match
    as the folder's own path. Held to deny and ask rules, that stand-in file
    only tightens the verdict."""
    import policyc
    from policyc.grammar import parse_bundle
    from policyc.grammar.printer import format_policy
    from policyc.runtime import load

    text = (
        "default ask\ntool grep path(path) split tree\n"
        "deny grep(~/.ssh/**) grep(./secrets/) grep(*.pem)\nask grep(./docs/**)\n"
        "allow grep(./**) grep(/repo)\n"
    )
    table = load(policyc.compile_text(text, "t.policy"), home="/home/u")

    def decide(path=None):
        args = {"pattern": "key"} if path is None else {"pattern": "key", "path": path}
        return table.decide("grep", args, cwd="/repo")

    denied = decide("~/.ssh")
    assert (denied.action, denied.rule, denied.subject) == (
        "block",
        "grep(~/.ssh/**)",
        "/home/u/.ssh/…",
    )
    assert denied.reason.endswith('nothing in this command ran, including "/home/u/.ssh"')
    assert decide("secrets").action == "block"
    assert decide("secrets/old").action == "block"
    assert decide("docs").action == "defer"
    # Some files under it denied (`*.pem`), not all: the search is decided as
    # its folder (the tool must skip them; policyc cannot).
    assert (decide("certs").action, decide("certs").subject) == ("allow", "/repo/certs")
    assert (decide().action, decide().rule) == ("allow", "grep(/repo)")
    assert decide("~").action == "defer"  # no rule allows /home/u; ~/.ssh is only part of it
    bundle = parse_bundle(text, "t.policy")
    assert parse_bundle(format_policy(bundle), "t.policy") == bundle
    assert [t.split for t in bundle.tools] == ["tree"]


@settings(max_examples=500, deadline=None)
@given(
    body=st.lists(
        st.sampled_from(["a", "src", ".env", "*", "**", "a*", "*.pem"]), min_size=1, max_size=4
    ).map("/".join),
    folder=st.lists(st.sampled_from(["a", "src", ".env", "b"]), max_size=3).map(
        lambda segs: "/".join(["/repo", *segs])
    ),
    name=st.sampled_from(["x", "key.pem", "a", ".env", "deep/er/file"]),
)
def test_the_stand_in_file_matches_only_patterns_that_cover_every_file(body, folder, name):
    """A pattern that matches `FOLDER/<NUL>` (no `?`, which matches any one
    character) matches every file under the folder: no literal matches the
    NUL, which no real path holds."""
    from policyc.runtime.splitters import ANY_FILE

    with pytest.raises(PathError):
        normalize_path(folder + "/" + ANY_FILE, "/repo", "/home/u")
    for spec in (body, "./" + body, "/repo/" + body):
        if path_matches(spec, folder + "/" + ANY_FILE, "/repo", "/home/u"):
            last = name.split("/")[-1]
            file = folder + "/" + name
            assert path_matches(spec, folder + "/" + last, "/repo", "/home/u"), (spec, folder)
            if spec.endswith("**") or spec.endswith("/"):
                assert path_matches(spec, file, "/repo", "/home/u"), (spec, file)


_SEGMENTS = ["r", "h", "a", ".env"]
# Below a folder: a name for each segment pattern the test draws (`a*`,
# `*.pem` and `?` match `ab`, `k.pem` and `q`) and one none names.
_BELOW = [*_SEGMENTS, "ab", "k.pem", "q", "x"]


def _paths_below(folder: str, depth: int = 4, names: list[str] = _BELOW) -> list[str]:
    """Every path below `folder` of 1 to `depth` names (from _BELOW)."""
    out, level = [], [folder.rstrip("/")]
    for _ in range(depth):
        level = [path + "/" + name for path in level for name in names]
        out += level
    return out


@settings(max_examples=150, deadline=None)
@given(
    body=st.lists(
        st.sampled_from(["a", "r", ".env", "*", "**", "a*", "*.pem", "?", ".git"]),
        min_size=1,
        max_size=3,
    ).map("/".join),
    anchor=st.sampled_from(["", "./", "/", "/r/", "~/", "**/"]),
    folder=st.lists(st.sampled_from(_SEGMENTS), max_size=2).map(lambda s: "/" + "/".join(s)),
    worktree=st.booleans(),
    placed=st.booleans(),
)
def test_every_file_under_a_folder_meets_a_rule_on_any_of_them(
    body, anchor, folder, worktree, placed
):
    """`grep -r x DIR` reads every file under DIR (EVERY_FILE), `git clean`
    removes those outside a `.git` folder (WORKTREE_FILES): read broadly
    (deny and ask rules), a rule meets it if it matches some such path below
    DIR; as written (carve-outs), only if it matches them all. Checked
    against every path of up to four names below DIR, from names that match
    each segment pattern drawn. What may be a folder (`mv DIR x`,
    IF_FOLDER) is met so only by rules tied to a place: with no `**`, the
    same; with one, never more."""
    from policyc.runtime.paths import (
        IF_FOLDER,
        IF_WORKTREE_FOLDER,
        WORKTREE_FILES,
        path_anchor,
    )

    spec, cwd, home = anchor + body, "/r", "/h"
    markers = {
        (False, False): EVERY_FILE,
        (True, False): WORKTREE_FILES,
        (False, True): IF_FOLDER,
        (True, True): IF_WORKTREE_FOLDER,
    }
    stand_in = folder.rstrip("/") + "/" + markers[worktree, placed]
    below = _paths_below(folder, 4, [*_BELOW, ".git"])
    if worktree:
        below = [path for path in below if ".git" not in path[len(folder) :].split("/")]
    # Read broadly, a rule on a name at any depth still sees the files by
    # their names where they land: only the folder itself is tried.
    tried = [folder] if placed and path_anchor(spec) == "anywhere" else below
    some = any(path_matches(spec, path, cwd, home, broad=True) for path in tried)
    met = path_matches(spec, stand_in, cwd, home, broad=True)
    if placed and "**" in body:  # a `**` may take the folder's name: only those tied to it
        assert not met or some, (spec, folder)
    else:
        assert met == some, (spec, folder)
    every = all(path_matches(spec, path, cwd, home) for path in below)
    if worktree or placed:  # as written, read as every file: only a rule on all of them
        assert not path_matches(spec, stand_in, cwd, home) or every, (spec, folder)
    else:
        assert path_matches(spec, stand_in, cwd, home) == every, (spec, folder)


def _bash_glob_matches(glob: str, name: str, dots: bool) -> bool:
    """bash's default matching of a glob against a file name (a leading `.`
    matched only by the glob's own), by fnmatch, which reads `[…]` as bash does."""
    import fnmatch

    if name[:1] == "." and glob[:1] != "." and not dots:
        return False
    return fnmatch.fnmatchcase(name, glob)


_NAMES = [
    "".join(chars)
    for n in (1, 2, 3)
    for chars in __import__("itertools").product("ae.rx", repeat=n)
]


@settings(max_examples=150, deadline=None)
@given(
    body=st.lists(
        st.sampled_from(["a", "r", ".e", "*", "**", "a*", "*.e", "?"]), min_size=1, max_size=3
    ).map("/".join),
    anchor=st.sampled_from(["", "./", "/", "/r/", "**/"]),
    folder=st.lists(st.sampled_from(["r", "a", ".e"]), max_size=2).map(lambda s: "/" + "/".join(s)),
    glob=st.sampled_from(["a*", ".e*", "*", "?", ".?", "*e", "[ae]", "r", "*.*", "x?"]),
    dots=st.booleans(),
    tree=st.booleans(),
)
def test_a_glob_meets_a_rule_on_a_name_it_matches(body, anchor, folder, glob, dots, tree):
    """`cat .e*` reads what bash's glob names (and `rm -r x*` what is under
    those): read broadly, a rule meets the glob's stand-in if it matches such a
    name (or, with `tree`, a path under one), the glob's own text, or the
    folder; checked against every name of up to three characters."""
    from policyc.runtime.paths import glob_stand_in, normalize_path

    spec, cwd, home = anchor + body, "/r", "/h"
    word = folder.rstrip("/") + "/" + glob + ("/" + EVERY_FILE if tree else "")
    stand_in = glob_stand_in(word, dots)
    head, _, marker = stand_in.rpartition("/")
    stand_in = normalize_path(head or "/", cwd, home).rstrip("/") + "/" + marker
    named = [folder.rstrip("/") + "/" + n for n in _NAMES if _bash_glob_matches(glob, n, dots)]
    named.append(folder.rstrip("/") + "/" + glob)  # kept as it is when it matches nothing
    # Below a name: one for each segment pattern drawn, and one none names.
    below = ["a", "r", ".e", "ae", "a.e", "q", "x"]
    paths = named + [p for n in named for p in _paths_below(n, 3, below)] if tree else named
    some = path_matches(spec, folder, cwd, home, broad=True) or any(
        path_matches(spec, path, cwd, home, broad=True) for path in paths
    )
    met = path_matches(spec, stand_in, cwd, home, broad=True)
    # A bracket expression is read as any one character: more names, never fewer.
    assert met == some or "[" in glob and met, (spec, word, dots)
    # As written, only what covers them all (a word with no glob character is
    # the file, and with `tree` what is under it: `rm -r r`'s two subjects).
    if "/" + EVERY_FILE in stand_in and tree and not any(c in glob for c in "*?["):
        paths = [p for p in paths if p not in named]
    if path_matches(spec, stand_in, cwd, home):
        assert all(path_matches(spec, path, cwd, home) for path in paths), (spec, word)


_SHORT_NAMES = [n for n in _NAMES if len(n) < 3] + ["a.e", "x.e", ".ee", "r.x", "a.x"]


@settings(max_examples=120, deadline=None)
@given(
    body=st.lists(
        st.sampled_from(["a", "r", ".e", "*", "**", "a*", "*.e", "?", ".git", "node_modules"]),
        min_size=1,
        max_size=3,
    ).map("/".join),
    anchor=st.sampled_from(["", "./", "/", "/r/", "**/"]),
    folder=st.lists(st.sampled_from(["r", "a", ".e"]), max_size=2).map(lambda s: "/" + "/".join(s)),
    globs=st.lists(
        st.sampled_from(["*.e", "*", "a*", ".e*", "?", "r", "*.x", ".git", ".g*"]),
        min_size=1,
        max_size=2,
    ),
    dots=st.booleans(),
    tree=st.booleans(),
    skipped=st.sampled_from([frozenset(), NO_GIT, NO_GIT_OR_PACKAGES]),
)
def test_files_named_at_any_depth_meet_a_rule_on_one_of_them(
    body, anchor, folder, globs, dots, tree, skipped
):
    """`black src` rewrites the `*.py` files at any depth under src, and only
    those (`find . -name x -exec rm -rf {} +` what is under such a name
    too, `tree`; `prettier --write .` none in a `.git` or `node_modules`
    folder, `skipped`):
    read broadly, a rule meets their stand-in if it names the folder
    or one above it, or matches such a file (`./src/gen/**`, `**/*.py`), or
    names a folder on the way there (`./vendor`), unless its name is a file's
    (`./x.json`, and a few well-known names: `./.env`); as written, only what covers
    every file under the folder. Checked against every path of up to four
    folders below it and a short name."""
    from policyc.runtime.paths import files_named_under, path_anchor

    spec, cwd, home = anchor + body, "/r", "/h"
    stand_in = files_named_under(folder, tuple(globs), dots, tree, skipped)
    short = _SHORT_NAMES + [".git", ".g.e", ".gx", "node_modules"]
    names = [n for n in short if any(_bash_glob_matches(g, n, dots) for g in globs)]
    on_the_way = ["a", "r", ".e", ".git", "node_modules"]
    folders = [folder.rstrip("/"), *_paths_below(folder, 4, on_the_way)]
    paths = [f + "/" + name for f in folders for name in names]
    if tree:  # and what is under such a name (fewer of them: the paths below are many)
        from fnmatch import fnmatchcase

        # A name of each kind: the first the glob names that each segment pattern matches.
        segments = ["a", "r", ".e", "*", "a*", "*.e", "?", "x*", ".git", "node_modules"]
        kinds = {next((n for n in names if fnmatchcase(n, seg)), None) for seg in segments}
        few = [f + "/" + name for f in folders[:40] for name in kinds if name]
        gits = [f for f in folders if ".git" in f or "node_modules" in f][:20]
        few += [f + "/" + name for f in gits for name in kinds if name]
        below = on_the_way
        paths += [under for path in few for under in _paths_below(path, 3, below)]
    if skipped:  # none through a skipped folder below the folder
        depth = len(folder.rstrip("/").split("/"))
        paths = [p for p in paths if skipped.isdisjoint(p.split("/")[depth:])]
    # A rule on the folder or one above it, or on such a file itself (the
    # names are in lower case: as written is broadly, but for the folders
    # above a file, which a rule ending on one does not name as such).
    some = path_matches(spec, folder, cwd, home, broad=True) or any(
        path_matches(spec, path, cwd, home) for path in paths
    )
    # A rule whose last name may be a folder's (no extension: `./vendor`,
    # `.e`) covers what is under it too; one with an extension (`*.e`) not.
    last = spec.rsplit("/", 1)[-1]
    if not some and last != "**" and "." not in last[1:]:
        as_folder = spec + "/**"
        if path_anchor(spec) == "anywhere" and not spec.startswith("**/"):
            as_folder = "**/" + as_folder  # (`a` anywhere; `a/**` would be anchored)
        some = any(path_matches(as_folder, path, cwd, home) for path in paths)
    assert path_matches(spec, stand_in, cwd, home, broad=True) == some, (spec, folder, globs)
    if path_matches(spec, stand_in, cwd, home):
        assert all(path_matches(spec, path, cwd, home) for path in paths), (spec, folder, globs)


def test_what_stands_for_files_under_a_folder_is_said_as_a_person_reads_it():
    # `decide --explain` and the hook show these, not the NUL-marked path.
    from policyc.runtime.paths import (
        IF_FOLDER,
        WORKTREE_FILES,
        files_named_under,
        glob_stand_in,
        stand_in_text,
    )

    said = {
        "/repo/x": None,
        "/" + EVERY_FILE: "every file under /",
        "/r/" + WORKTREE_FILES: "every file under /r outside .git",
        "/r/a/" + IF_FOLDER: "what is under /r/a if it is a folder",
        "/r/\0": "a file under /r whose name is not known here",
        glob_stand_in("/r/.e*", False): "the files in /r that .e* matches",
        glob_stand_in(
            "/r/c*/" + EVERY_FILE, False
        ): "what is under the names in /r that c* matches",
        files_named_under("/r", ("*.py", "*.pyi", "README")): (
            "every file named *.py, *.pyi or README under /r"
        ),
        files_named_under("/r", ("*.py",), tree=True, skipped=NO_GIT): (
            "every file named *.py under /r outside .git, and what is under such a folder"
        ),
        files_named_under("/r", ("*.js",), skipped=NO_GIT_OR_PACKAGES): (
            "every file named *.js under /r outside .git and node_modules"
        ),
    }
    assert {path: stand_in_text(path) for path in said} == said


def test_deny_and_ask_path_rules_are_read_broadly():
    """On macOS's and Windows' filesystems `.ENV` is `.env`, and gitignore's
    patterns cover what is in a folder they match: a deny matched as written
    let the model read `.ENV` and `secrets/key` under `./secrets`. Read so only
    where that refuses more: deny and ask rules, and the carve-outs of allow
    rules."""
    import policyc
    from policyc.grammar import parse_bundle
    from policyc.reference import ReferenceEngine
    from policyc.runtime import load

    text = (
        "default allow\ntool read path(file_path) split path\n"
        "deny read(./.env) read(~/.ssh/**) read(./secrets/**) read(!./secrets/public/**)\n"
        "deny read(./vault) read(.aws)\n"
        "ask read(./Docs/*.md)\n"
        "allow read(./src/**) read(!./src/private) read(./lib)\n"
    )
    table = load(policyc.compile_text(text, "t.policy"), home="/home/u")
    reference = ReferenceEngine(parse_bundle(text, "t.policy"), home="/home/u")
    want = {
        ".ENV": ("block", "read(./.env)"),
        "/HOME/U/.SSH/id_rsa": ("block", "read(~/.ssh/**)"),
        "Secrets/key": ("block", "read(./secrets/**)"),
        "docs/A.MD": ("defer", "read(./Docs/*.md)"),
        # A deny's carve-out as written: `PUBLIC` may be another folder.
        "secrets/PUBLIC/x": ("block", "read(./secrets/**)"),
        "secrets/public/x": ("allow", None),
        # An allow as written, its carve-out in any case.
        "src/a.py": ("allow", "read(./src/**)"),
        "SRC/a.py": ("allow", None),
        "src/PRIVATE/x": ("allow", None),
        "src/private/deeper/x": ("allow", None),
        # A folder the rule names covers what is in it.
        "vault/key": ("block", "read(./vault)"),
        "sub/.AWS/credentials": ("block", "read(.aws)"),
        "lib": ("allow", "read(./lib)"),
        "lib/a.py": ("allow", None),  # an allow as written: the folder only
    }
    for path, (action, rule) in want.items():
        got = table.decide("read", {"file_path": path}, cwd="/repo")
        assert (got.action, got.rule) == (action, rule), path
        assert reference.decide("read", {"file_path": path}, cwd="/repo") == got, path


@settings(max_examples=500, deadline=None)
@given(
    spec=st.lists(
        st.sampled_from(["a", "A", "src", "SRC", "*", "**", "a*", "*.PY", "ß"]),
        min_size=1,
        max_size=3,
    ).map("/".join),
    path=st.lists(
        st.sampled_from(["a", "A", "src", "Src", "x.py", "X.Py", "ss", "SS"]), max_size=4
    ).map(lambda segs: "/repo/" + "/".join(segs)),
    anchor=st.sampled_from(["", "./", "/repo/", "/REPO/"]),
)
def test_reading_a_rule_broadly_only_adds_matches(spec, path, anchor):
    """What a rule matches as written it matches broadly, and broadly it
    matches what is under a path it matches: reading a deny broadly refuses
    more, an allow's carve-out allows less."""
    spec = anchor + spec
    if path_matches(spec, path, "/Repo", "/home/u"):
        assert path_matches(spec, path, "/Repo", "/home/u", broad=True)
    if path_matches(spec, path, "/Repo", "/home/u", broad=True):
        assert path_matches(spec, path.rstrip("/") + "/x/Y", "/Repo", "/home/u", broad=True)
        assert path_matches(spec, path.upper(), "/Repo", "/home/u", broad=True)


def test_a_path_through_a_process_root_or_working_directory_is_refused():
    """`/proc/self/root/home/u/.ssh/id_rsa` is `~/.ssh/id_rsa` under another
    name, which no rule matches; only following the link tells what it names."""
    for path in [
        "/proc/self/root/home/u/.ssh/id_rsa",
        "/proc/1/cwd/.env",
        "/proc/self/task/7/root",
        "/proc/self/cwd/../../home/u/.ssh/id_rsa",  # `..` climbs from where the link points
        "/dev/fd/../root/etc/shadow",  # /dev/fd is /proc/self/fd
        "../proc/self/root/x",
    ]:
        with pytest.raises(PathError, match="cannot be evaluated statically"):
            normalize_path(path, "/repo", "/home/u")
    for path in [
        "/proc/cpuinfo",
        "/proc/self/status",
        "/repo/proc/self/root/x",
        "/proc/self/rootx",
    ]:
        assert normalize_path(path, "/repo", "/home/u") == path
    assert normalize_path("/proc/self/root/", "/repo", "/home/u", follow_symlinks=True) == "/"


def _folders_above(path: str) -> list[str]:
    out = [path]
    while path != "/":
        path = path[: path.rfind("/")] or "/"
        out.append(path)
    return out


_BROAD_SEGMENTS = ["a", "src", ".env", "x.py", "a.pyc", ".envrc", "xsrc", "q"]


@pytest.mark.parametrize(
    "spec",
    [
        *["a", "src", ".env", "*", "*.py", "*a", "x.py", "?", "a*", "*.env", "**"],
        *["./src", "./src/a", "/a", "~/.env", "./src/**", "src/", "./*.py", "src/*/a"],
    ],
)
def test_a_broad_match_is_a_match_on_the_path_or_a_folder_above_it(spec):
    """`match_broad`'s string tests agree with its definition, `match` on the
    path or on a folder above it: every path of up to three segments."""
    from itertools import product

    from policyc.runtime.paths import _path_pattern

    pattern = _path_pattern(spec, "/repo", "/home/u")
    segments = _BROAD_SEGMENTS + ["repo", "home", "u"]
    for n in range(4):
        for parts in product(segments, repeat=n):
            path = "/" + "/".join(parts)
            want = any(pattern.match(folder) for folder in _folders_above(path))
            assert pattern.match_broad(path) == want, (spec, path)


def test_macos_other_names_for_etc_tmp_and_var_are_read_broadly():
    assert path_matches("/etc/**", "/private/etc/sudoers", broad=True)
    assert path_matches("/private/var/db/**", "/var/db/x", broad=True)
    assert path_matches("/tmp", "/private/tmp/build/x", broad=True)
    assert not path_matches("/etc/**", "/private/etc/sudoers")  # as written: an allow
    assert not path_matches("/etc/**", "/private/etcetera/x", broad=True)
    assert not path_matches("/x/**", "/private/x/y", broad=True)


def test_an_accented_name_is_one_name_in_either_form():
    """macOS's filesystem takes `é` and `e` with a combining accent as one name."""
    composed, decomposed = "./caf\u00e9", "/repo/cafe\u0301"
    assert path_matches(composed, decomposed, "/repo", None, broad=True)
    assert path_matches(composed, decomposed.upper(), "/repo", None, broad=True)
    assert not path_matches(composed, decomposed, "/repo", None)


_SEGMENTS = st.sampled_from(
    ["a", "b", "src", ".env", "x.py", "", "*", "**", "?", "a*", "*.py", "[ab]", "[!a]*"]
)


@settings(max_examples=500, deadline=None)
@given(
    base=st.sampled_from(["", "/repo", "/home/u"]),
    body=st.lists(_SEGMENTS, max_size=4).map("/".join),
    slash=st.booleans(),
    path=st.lists(_SEGMENTS.filter(lambda s: not set(s) & set("*?[")), max_size=5).map(
        lambda segs: "/" + "/".join(segs)
    ),
    prefix=st.sampled_from(["", "/repo", "/home/u", "/repo/src"]),
)
def test_a_literal_pattern_compared_as_a_string_matches_as_segments_do(
    base, body, slash, path, prefix
):
    """File and folder rules (`./.env`, `./src/**`) are compared as strings;
    every pattern, so compared or not, matches as the segment matcher does."""
    from policyc.runtime.paths import _PathPattern

    pattern = _PathPattern(base, body + ("/" if slash else ""))
    by_segments = _PathPattern(base, body + ("/" if slash else ""))
    by_segments.literal = None  # the segment matcher's answer, for every pattern
    value = (prefix + path).replace("//", "/")
    assert pattern.match(value) == by_segments.match(value), (base, pattern.pats, value)
