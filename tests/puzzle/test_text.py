"""The text form of a state (wsdb/puzzle/text.py)."""

import pytest

from wsdb.errors import WsdbError
from wsdb.puzzle import format_state, format_states, parse_state, parse_states, random_states, wrapslide


@pytest.mark.parametrize(
    "text",
    [
        "1212/3434/1243/3421",
        "1212,3434,1243,3421",
        "1212 3434 1243 3421",
        "1212\n3434\n1243\n3421\n",
        "1212343412433421",
        "ABAB/CDCD/ABDC/CDBA",
    ],
)
def test_parse_forms_agree(text):
    puzzle, cells = parse_state(text)
    assert (puzzle.n, puzzle.c) == (4, 4)
    assert format_state(cells) == "1212/3434/1243/3421"


def test_big_colour_is_last_whatever_its_symbol():
    # c = 3: the symbol with 2q cells becomes colour 3; c = 2: the 3q one colour 2
    _, cells = parse_state("aabb/aabb/ccbb/ccbb")
    assert format_state(cells) == "1133/1133/2233/2233"
    _, cells = parse_state("0001/0001/0000/0110")
    assert format_state(cells) == "2221/2221/2222/2112"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("121", "3 cells"),
        ("1212/3434/1243/342", "15 cells"),
        ("1212/3434/1243/342x", "5 distinct symbols"),
        ("1111/1111/1111/1111", "1 distinct symbols"),
        ("1111/1222/3333/4444", "do not fit"),
        ("12123/43412/43342/1", "rows of lengths"),
        ("", "empty state"),
    ],
)
def test_bad_states_are_refused_with_a_reason(text, fragment):
    with pytest.raises(WsdbError, match=fragment):
        parse_state(text)


def test_batch_errors_name_the_state():
    with pytest.raises(WsdbError, match="state 2"):
        parse_states(["1122/1122/3344/3344", "12"])


@pytest.mark.parametrize("n, c", [(4, 4), (6, 2), (8, 3)])
def test_format_states_equals_format_state_and_parses_back(n, c):
    cells = random_states(wrapslide(n, c), 20, seed=n + c)
    texts = format_states(cells, n).tolist()
    assert texts == [format_state(x) for x in cells]
    assert all((parse_state(t)[1] == x).all() for t, x in zip(texts, cells))


# ---- parse_grouped (the batch parser) agrees with parse_state ----------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from wsdb.puzzle import parse_grouped  # noqa: E402


def _one_by_one(texts):
    """parse_state's verdict on each text: (n, c, cells) or its error."""
    out = []
    for t in texts:
        try:
            p, cells = parse_state(t)
            out.append((p.n, p.c, cells.tolist()))
        except WsdbError as e:
            out.append(str(e))
    return out


def _near_states():
    """Text that is often a valid state and often almost one: a random
    state with symbols renamed, separators, and edits."""

    def make(args):
        (n, c, seed, names, sep, edit) = args
        cells = random_states(wrapslide(n, c), 1, seed=seed)[0]
        text = sep.join("".join(names[v] for v in cells[r * n : (r + 1) * n]) for r in range(n))
        if edit is not None:
            pos, ch = edit
            pos %= len(text) + 1
            text = text[:pos] + ch + text[pos + 1 :]
        return text

    return st.tuples(
        st.sampled_from([2, 4, 6]),
        st.sampled_from([2, 3, 4]),
        st.integers(0, 10**6),
        st.permutations("ab12XZ.é"),
        st.sampled_from(["/", ",", " ", "\n", "", " / "]),
        st.none() | st.tuples(st.integers(0, 80), st.characters()),
    ).map(make)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_near_states() | st.text(max_size=40), min_size=1, max_size=6))
def test_batch_parser_agrees_with_parse_state(texts):
    verdicts = _one_by_one(texts)
    bad = [i for i, v in enumerate(verdicts) if isinstance(v, str)]
    if bad:
        with pytest.raises(WsdbError) as err:
            parse_grouped(texts)
        with pytest.raises(WsdbError) as want:
            parse_states(texts)
        assert str(err.value) == str(want.value)
        return
    got = {}
    for (n, c), (puzzle, positions, cells) in parse_grouped(texts).items():
        assert (puzzle.n, puzzle.c) == (n, c)
        for i, row in zip(positions.tolist(), cells.tolist()):
            got[i] = (n, c, row)
    assert [got[i] for i in range(len(texts))] == verdicts


@pytest.mark.parametrize(
    "state, expected",
    [
        ("1111/2222/3333/4444", None),
        ("1111/1111/2222/3334", "expected four colours with 4 cells each"),
        ("1112/1122/2223/3333", "expected two colours with 4 cells and one with 8"),
        ("1111/1111/1112/2222", "expected one colour with 4 cells and one with 12"),
    ],
)
def test_colour_count_messages_read_naturally(state, expected):
    if expected is None:
        parse_state(state)
        return
    with pytest.raises(WsdbError) as e:
        parse_state(state)
    assert str(e.value).endswith(expected) and "(s)" not in str(e.value)


def test_a_byte_that_is_not_utf8_is_a_symbol_not_a_crash():
    # the shell hands a byte that is not UTF-8 to Python as a lone surrogate (surrogateescape)
    with pytest.raises(WsdbError, match="5 distinct symbols"):
        parse_state("\udcff111/2222/3333/4444")
    puzzle, cells = parse_state("\udcff\udcff\udcff\udcff/1111/1111/1111")
    assert (puzzle.n, puzzle.c) == (4, 2) and sorted(cells.tolist()) == [0] * 4 + [1] * 12
    with pytest.raises(WsdbError, match=r"\\udcffx3"):
        parse_state("\udcff\udcff\udcff1/1111/1111/1111")


# ---- other puzzles' text: goals, states in a goal's symbols, sliding boards ----

from wsdb.puzzle.rubeish import rubeish  # noqa: E402
from wsdb.puzzle.sliding import SlidingPuzzle  # noqa: E402
from wsdb.puzzle.text import format_cells, parse_cells, parse_goal, state_texts  # noqa: E402


def test_goal_symbols_become_labels_in_sorted_order():
    symbols, cells = parse_goal("ba./a.b/..b", 3)
    assert symbols == ".ab"
    assert cells.tolist() == [2, 1, 0, 1, 0, 2, 0, 0, 2]


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "empty goal"),
        ("12/34", "expected 3 rows of 3 symbols"),
        ("123/45/6789", "expected 3 rows of 3 symbols"),
    ],
)
def test_bad_goals_say_what_was_expected(text, fragment):
    with pytest.raises(WsdbError, match=fragment):
        parse_goal(text, 3)


def test_states_use_the_goals_symbols_and_counts():
    p = rubeish(3, "aab/bcc/abc")
    cells = parse_cells(p, "cba/bac/abc")
    assert format_cells(p, cells) == "cba/bac/abc"
    with pytest.raises(WsdbError, match="does not"):
        parse_cells(p, "xba/bac/abc")
    with pytest.raises(WsdbError, match="expected the goal's counts"):
        parse_cells(p, "aaa/bac/abc")


@pytest.mark.parametrize(
    "puzzle",
    [wrapslide(4, 3), wrapslide(6, 4), rubeish(3), rubeish(3, "aab/bcc/abc"), SlidingPuzzle(2, 3), SlidingPuzzle(3, 4)],
    ids=lambda p: p.label,
)
def test_every_puzzles_states_are_written_in_its_symbols_row_by_row(puzzle):
    """state_texts against the text written out cell by cell: each label's
    symbol (Wrapslide's digit), rows of the board's width joined by '/'."""
    import numpy as np

    rng = np.random.default_rng(7)
    cells = np.stack(
        [rng.permutation(np.resize(np.asarray(puzzle.solved).reshape(-1), puzzle.ncells)) for _ in range(20)]
    )
    symbols = puzzle.symbols or "123456789"[: puzzle.c]
    width = puzzle.cols
    want = [
        "/".join("".join(symbols[v] for v in row[i : i + width]) for i in range(0, puzzle.ncells, width))
        for row in cells.tolist()
    ]
    assert state_texts(puzzle, cells) == want
    if puzzle.name == "wrapslide":
        assert want == format_states(cells, puzzle.n).tolist()


def test_a_goal_in_symbols_beyond_ascii_is_written_back_as_given():
    p = rubeish(2, "éé/ßß")
    assert state_texts(p, parse_cells(p, "ßé/éß")[None]) == ["ßé/éß"]
    assert format_cells(p, parse_cells(p, "ßé/éß")) == "ßé/éß"
