"""Option views: a part shown as a deny or ask rule that names its options writes it.

`Bash(rm -rf:*)` met `rm -rf x` alone, as text: `rm -fr x`, `rm -r -f x`,
`rm x -rf`, `rm -rfv x`, `rm -Rf x` and `rm --recursive --force x` run
what it names, and `Bash(git reset --hard:*)` missed `git reset -q --hard`,
`Bash(chmod 777:*)` missed `chmod -R 777 x`. Every option is read as a set
member here, as getopt reads it: a rule's options are met when the part has
each of them, in any place, order, cluster or name (`SAME_OPTIONS`), among
others, and its other words are the part's operands, in order.

At load (`option_shapes`), each deny and ask command rule of a shell-split
tool with words past its program (git's command) gives the program its
**shape**: the rule's words, its operands as slots. A part of that program
holding options is then also shown, to deny and ask rules only, as each
shape it has the options of, written as the rule writes them with the
part's operands in the slots and its other options left out (`rm -vrf x`:
`rm -rf x`). A view only ever adds a subject a deny or ask rule may meet;
an allow must name the command as written. A policy with no such rule, and
a part of a program none names, pays nothing.
"""

from __future__ import annotations

# Options that are one another, by program (or git's command): the letter
# each is, in GNU's and git's manuals (`rm -R` and `rm --recursive` are
# `rm -r`; `git push --force` is `git push -f`).
SAME_OPTIONS = {
    **dict.fromkeys(("rm", "cp"), {"-R": "r", "--recursive": "r", "--force": "f"}),
    **dict.fromkeys(("chmod", "chown", "chgrp"), {"--recursive": "R"}),
    **dict.fromkeys(("git push", "git clean", "git checkout"), {"--force": "f"}),
}

_WILDCARDS = frozenset("*?[")


def options_key(words: list[str]) -> str:
    """The program a command's words are read by (git's `git CMD`)."""
    return words[0] + " " + words[1] if words[0] == "git" and len(words) > 1 else words[0]


def option_letters(word: str) -> str:
    """The letters of a word of one-letter options (`-rf`: "rf"), or ""."""
    if len(word) > 1 and word[0] == "-" and word[1:].isalpha() and word.isascii():
        return word[1:]
    return ""


def option_names(word: str, same: dict) -> tuple | None:
    """What options a word is, by the names `same` folds (`-Rf` to rm: r and
    f; `--force`: f; `--hard`: itself), or None for an operand."""
    if len(word) < 2 or word[0] != "-":
        return None
    if word in same:
        return (same[word],)
    letters = option_letters(word)
    if letters:
        return tuple(same.get("-" + letter, letter) for letter in letters)
    return (word,)


def option_shapes(spec: str) -> tuple[str, tuple] | None:
    """A command rule's program (`*` for a wildcard one) and its shape: its
    words past the program, each operand None, and the options it names;
    or None for a rule whose views could add nothing (a prefix with no word
    past its program, `git push:*`) or that cannot be read so (a quote, a
    wildcard in an option)."""
    if any(char in spec for char in "'\"\\"):
        return None
    prefix = spec.endswith(":*")
    words = spec.removesuffix(":*").removeprefix("!").split()
    if not words:
        return None
    if _WILDCARDS.intersection(words[0]):
        key, at = "*", 1
    else:
        key = options_key(words)
        at = 2 if key != words[0] else 1
    if prefix and len(words) <= at:
        return None
    same = SAME_OPTIONS.get(key, {})
    shape, named, operands = [], set(), False
    for word in words[at:]:
        if word == "*":  # the rest, whatever it is: the part's operands follow
            break
        names = None if operands else option_names(word, same)
        if word == "--":
            operands = True
            shape.append(word)
        elif names is None:
            shape.append(None)
        elif _WILDCARDS.intersection(word):
            return None
        else:
            shape.append(word)
            named.update(names)
    return key, (tuple(shape), frozenset(named))


def option_views(words: list[str], shapes: dict) -> list[list[str]]:
    """The part's views (words) for the shapes of its program and of any
    (`*`): one for each shape whose options the part has (`shapes`: by
    program, from `option_shapes`)."""
    out = []
    key = options_key(words)
    own = 2 if key != words[0] else 1  # the words the key is (git's command too)
    for program, lead in ((key, own), ("*", 1)):
        found = shapes.get(program)
        if not found:
            continue
        same = SAME_OPTIONS.get(program, {})
        named, operands = set(), []
        for k in range(lead, len(words)):
            word = words[k]
            if word == "--":  # (a word after it is an operand)
                operands += words[k + 1 :]
                break
            names = option_names(word, same)
            if names is None:
                operands.append(word)
            else:
                named.update(names)
        for shape, needs in found:
            if not needs <= named:
                continue
            view, taken = words[:lead], 0
            for word in shape:
                if word is not None:
                    view.append(word)
                elif taken < len(operands):
                    view.append(operands[taken])
                    taken += 1
                else:
                    break  # fewer operands than the rule names: it cannot be met
            else:
                out.append(view + operands[taken:])
    return out
