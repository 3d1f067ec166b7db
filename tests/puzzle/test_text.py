"""The text form of a state (wsdb/puzzle/text.py)."""
import pytest

from wsdb.errors import WsdbError
from wsdb.puzzle import format_state, format_states, parse_state, parse_states, random_states, wrapslide


@pytest.mark.parametrize("text", [
    "1212/3434/1243/3421", "1212,3434,1243,3421", "1212 3434 1243 3421",
    "1212\n3434\n1243\n3421\n", "1212343412433421", "ABAB/CDCD/ABDC/CDBA",
])
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


@pytest.mark.parametrize("text, fragment", [
    ("121", "3 cells"),
    ("1212/3434/1243/342", "15 cells"),
    ("1212/3434/1243/342x", "5 distinct symbols"),
    ("1111/1111/1111/1111", "1 distinct symbols"),
    ("1111/1222/3333/4444", "do not fit"),
    ("12123/43412/43342/1", "rows of lengths"),
    ("", "empty state"),
])
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
