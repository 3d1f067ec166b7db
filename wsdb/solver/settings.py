"""Every tuning knob of the solver in one place: beam widths, time shares,
search sizes and the depths trees are held to. Each says what it was
measured against; the modules named in each section read them from here."""

# Effort: what a solve may spend, counted in nodes (effort.py)

#: nodes a second on the reference machine (2 cores, idle): searches are budgeted in nodes, and the
#: shares below that were measured in seconds are converted at this rate (scripts/calibrate_effort.py)
NODES_PER_SECOND = 10_000_000
#: what one unit of each kind of work counts, in nodes (a node: one beam child generated and scored),
#: fitted to the seconds they took on the reference machine (scripts/calibrate_effort.py)
NODE_COSTS = {
    "child": 1.0,  # a beam child generated and scored (0.06-0.13 µs)
    "canonical": 6.0,  # a state's class found (its canonical key), to look it up in a tree
    "probe": 1.0,  # a class looked up in a tree
    "expand": 6.0,  # a child class made (and canonicalised), in meet in the middle or a tree's filter
    "dedup": 9.0,  # a child class sorted and deduplicated into meet in the middle's next level
    "objective": 60.0,  # a thesis child: generated, its objective computed, ranked (numpy, §4.1)
    "dfs": 3.0,  # a node of IDA*'s depth-first search
    "transposition": 300.0,  # a transposition read from the table (a repair step, a price)
    # a learned estimate: the child made, checked and keyed, then its network's multiply-adds, a
    # thousand at a time (8x8, 2,000 states' children: 256 and 128 units, 49,280 multiply-adds, 3.35 µs
    # = 43 children; 128 and 64, 16,448, 1.53 µs = 20; 64 and 32, 6,176, 0.82 µs = 11)
    "estimate": 7.0,
    "estimate_kmac": 0.73,
}
#: canonical, expand and dedup on one-word keys (8x8 two colours, every 6x6 and 4x4 two-colour
#: grid) cost this share of the two-word figures above: 0.05-0.10 µs against 0.5-0.7
NARROW_KEY_SHARE = 0.12
DEFAULT_EFFORT = 10.0 * NODES_PER_SECOND  # nodes per state, when no --effort is given (about 10 s)

# What a solve does (solve.py, methods.py)

MAX_SOLVE_N = 8  # the largest grid solved: on 10x10 a colour's placements, C(100, 25), outgrow
# the 64-bit ranks of the gather bounds
#: beam width per (n, c): as wide as fits about a second per state on 2 cores (6x6, 100 states:
#: four colours 20,000 wide 19.82 moves in 0.33 s, 60,000 19.52, 100,000 19.50 in 0.97 s; three
#: colours 10,000 wide 14.86 in 0.13 s, 40,000 14.76 in 0.22 s)
BEAM_WIDTH = {(6, 2): 5000, (6, 3): 40000, (6, 4): 100000, (8, 2): 20000, (8, 3): 8000, (8, 4): 1000}
#: the width instead where the grid has no gather table (6x6 without the complete two-colour tree:
#: the misfit count guides, each child costs more and helps less): the widths of before the table
#: reads were batched
NO_TABLE_WIDTH = {(6, 3): 10000, (6, 4): 20000}
DEFAULT_WIDTH = 5000
#: per (n, c), beam states of each level, the best first, whose class is looked up in the tree (the
#: hand-over; other grids: all). Where gather tables guide, the best states are where the shortest
#: hand-over is: 6x6 four colours 60,000 wide, 40 states, answers as short with 10,000 as with every
#: state, a quarter of the lookups. Not where the misfit count guides (8x8 two colours: 4 states of
#: 100 longer, by 1-5 moves)
HANDOVER_STATES = {(6, 3): 10_000, (6, 4): 10_000}
RESCUE = 5.0 * NODES_PER_SECOND  # nodes: a beam's budget when IDA* ran out, so there is still an answer
#: the beam's width where any sequence within a budget will do (:mod:`.within`): 6x6 three colours,
#: 60 random states, 1,000 wide a median 0.043 s and at most 17 moves, against 0.19 s and 16 at the
#: default 40,000 (300 wide: 0.031 s, 18 moves), well inside a bound check's budget of 21-24
WITHIN_WIDTH = 1000
#: children of the last level meet in the middle deduplicates, per (n, c) (0: any other grid):
#: on 8x8 two colours the forward search reaches 6 levels (with the tree held to depth 9,
#: :data:`DERIVED`: exact answers up to 15, else a proven 16) in 1-6 s; elsewhere,
#: where the beam needs the time, a cheap first look of 4-5 levels (0.2-0.5 s) that still
#: lifts the bounds by 3-4 moves;
#: on 6x6 only 3-4 levels (0.05 s): the same lengths, bounds one lower, and a state takes
#: 0.3 s instead of 0.75 s (three colours), 0.9 s instead of 1.5 s (four)
MEET_CHILDREN = {(8, 2): 8_000_000, (8, 4): 20_000, (6, 3): 10_000, (6, 4): 10_000, 0: 200_000}
PHASES_FROM = 8  # auto runs phases from this grid size (on 6x6 the gather tables
# guide the beam to shorter answers)
RUN_AT_LEAST = 0.3 * NODES_PER_SECOND  # nodes: with an answer, a run of the phases starts if this is left
# (it stops where it cannot beat the answer, so even a short run may)
AGAIN_WIDTH = {3: 30_000, 4: 4000}  # per colour count, the last phase's beam (at least) when run again on
# the budget left after every order, one beam from every order's starts
# (phases.last_phase_again). Four colours: 240 splits of 20 states, time
# unlimited: best of 12 at 1,000 wide 55.8 moves, with the 4 shortest
# starts again 4,000 wide 54.2. Three colours, at least this wide (12
# states: 35.83 moves without it; from one start 32.75 at 32,000, 31.25 at
# 200,000, 30.67 at 300,000; from every start 30.67 at 200,000, 30.08 at
# 300,000, 30.17 at 400,000 (the budget ends some beams); as wide as
# AGAIN_NODES allows, 30.00)
AGAIN_NODES = {3: 150, 4: 3000}  # per colour count, nodes such a beam costs per unit of width (8x8 three
# colours, 300,000 wide: 110-180 on 12 states; four colours, 6 states, 4,000 wide
# 2,300-4,300, 16,000 wide 1,700-3,400); its width is then what the budget left allows
#: per colour count, the share of the budget kept for that beam once a run has an answer; the runs after it
#: stop where their last phase would start, their starts joining that beam. Four colours, time unlimited
#: from every run's starts (6 states): 1,000 wide 58.5 moves, 4,000 53.8, 16,000 52.2; with the budget,
#: 24 states (seeds 2016 and 7, 12 each) 53.46 moves before, 53.17 keeping 0.4, 52.33 with
#: MIDDLE_PHASE_WAYS as well (keeping 0.3: 52.54)
AGAIN_SHARE = {4: 0.4}
AGAIN_FILL = 0.9  # of the budget left, for that beam
AGAIN_AT_LEAST = 0.5 * NODES_PER_SECOND  # nodes left for one (a wide last phase takes about 1 s)
FINISH_SHARE = 0.15  # of the budget, left by the phases for repairs and cell exchanges
# while no run of the phases has finished
EXCHANGE_RESERVE = 0.3 * NODES_PER_SECOND  # nodes: repairs stop this early: cell exchanges finish what is left
REPAIR_FROM = 2  # waypoints repaired, the nearest solved first
PRICED = 8  # of the nearest waypoints, those a transposition table prices (~1 ms each)
MEET_SHARE = 0.6  # of the budget, in auto, before the beam gets the rest
#: per (n, c), nodes auto spends after the beam on IDA* to the tree below the beam's length (a
#: shorter answer, or the proof that the beam's is optimal); grids left out, none (6x6 four
#: colours: proofs take minutes)
PROVE_EFFORT = {(6, 3): 0.8 * NODES_PER_SECOND}
RESERVE = 0.05  # of a --time-limit cap, kept for what follows a search (the last beam
# level, the stored tail, checking the answer): 8x8 states took
# up to 10.35 s of 10 without it

# Guides (guide.py)

ZOBRIST_SEED = 20161  # fixed: searches are reproducible
#: grids without a gather table whose beams the two-colour tree guides: 8x8 four colours
#: (the last phase, splitting two colours, 39 -> about 24 moves); on three colours the misfit
#: count guides better (12 states: 37.0 moves against 40.6)
GATHER_TREES = {(8, 4)}

# The learned guide, --method learned (learned.py, value_net.py, training.py)

#: grids whose auto answers with the learned beam (after meet in the middle) where the database keeps a
#: learned guide (else the phases). 12 states (seed 2016), effort 100, guides of 200 rounds: 8x8 four
#: colours 128 and 64 units 49.58 moves, 256 and 128 53.92, against the phases' 52.50; three colours,
#: 128 and 64 units, 28.33 against 30.00 (a first beam 3,000 wide: 28.42)
LEARNED_AUTO = {(8, 3), (8, 4)}
#: the learned beam's first width per (n, c); wider beams follow while the budget lasts
LEARNED_WIDTH: dict[tuple[int, int], int] = {}
DEFAULT_LEARNED_WIDTH = 1000
LEARNED_STALL = 12  # levels without a better best estimate before a learned beam gives up
LEARNED_MAX_WIDTH = 100_000  # the widest learned beam (a small grid's first beam costs little: no wider)
LEARNED_FILL = 0.8  # of the budget left after the first learned beam, for one as wide as it allows (auto
# spends the rest on the gather bound, methods.gather_bound)
#: wsdb learn's longest random walk per Wrapslide grid size (about 1.5 times the grid's mean distance)
LEARN_LONGEST = {4: 20, 6: 40, 8: 60}
ESTIMATE_STEPS = 16  # a learned estimate is ranked in steps of 1/16 of a move (the beam's integer keys)

# IDA*, --method optimal (ida.py)

IDA_STREAMS = 4  # parallel streams of the hand-over search, fixed so that the answer does not
# depend on the threads (on 2 cores two streams a thread)
IDA_SPLIT = 2  # the depth whose nodes the streams divide among them
SPREAD_SPLIT = 3  # ... when an iteration is spread over Dask workers (spread.py): 6x6 has a few
# hundred nodes at depth 2, a few thousand at 3, enough shares for many workers
SPREAD_SHARES = 4  # tasks a bound is cut into per worker thread, so that no worker idles while
# the slowest share runs
PROOF_SHARES = 64  # shares of each bound of an --at-least proof (shares.py), each kept as it
# finishes; one after another, sharing their visit tables, they take 1.04 and
# 1.09 times the whole bound's time (bounds 17 and 18 of a 6x6 four-colour state)
IDA_LEAVES = 1 << 15  # states at the horizon per stream looked up in the tree at once
#: slots of each stream's visit table (:mod:`.visit_kernels`; 24 bytes each, a power of two; 0: none)
VISIT_SLOTS = 1 << 21
IDA_CALL_NODES = 250_000  # nodes per stream and kernel call, so the budget is checked often (a call
# of 4 streams counts 3 M nodes)

# Meet in the middle (meet.py)

MEET_CHUNK = 1 << 15  # frontier classes expanded per kernel call
MEET_KEEP = 8_000_000  # children of a level worth deduplicating into a frontier: the level
# after one of 8 M children costs ~20x, beyond any time limit

# Phases: 8x8 three and four colours (phases.py)

#: beam width per colour count of a phase on 8x8
PHASE_WIDTH = {2: 20000, 3: 8000, 4: 1000}  # four colours: guided by the two-colour tree,
# four tree lookups a child
#: ways of the first phase's length kept (meet.meet_ways, beam.beam_ways): the next phase starts
#: from all. 12 states, three colours: 10 ways 30.50 moves, 30 30.33, 100 30.33; four colours
#: (with six levels below): 10 ways 54.33, 30 52.67
FIRST_PHASE_WAYS = 30
#: ... of a middle phase's (three colours of four): the last phase's starts (12 states: 52.50 moves with 10
#: ways, 53.50 with one)
MIDDLE_PHASE_WAYS = 10
PHASE_MEET_TRIES = 3  # best beam states meet in the middle starts from, per phase
PHASE_MEET_CHILDREN = 1_000_000  # a level with more children is the last, streamed: on 8x8
# three and four colours the fifth (~2 M children, ~1.5 s);
# deduplicating it (two-word keys) would take 6 s more
PHASE_MEET_EFFORT = 2.0 * NODES_PER_SECOND  # nodes at most, per try
#: per colour count, the first phase's meet in the middle from its start: on 8x8 1 M children are
#: five levels, exact up to 14 moves with the derived tree (~0.5 s); 8 M six, up to 15, the sixth
#: streamed until FIRST_PHASE_WAYS ways are found or FIRST_PHASE_MEET_EFFORT is spent (~2.3 s
#: where it is needed). Three colours, 12 states: 30.33 moves with six levels, 30.92 with five
#: (where a colour gathers in 15 moves, the beam took 18-22); effort 1.5 s: 30.25, 2 s: 30.33.
#: Four colours gather up to four colours first, each such search its own: 100 states, six levels
#: 53.64 moves, but three states where no order finished in the budget (finished by repairs);
#: five levels 53.11, none
FIRST_PHASE_MEET_CHILDREN = {3: 8_000_000, 4: 1_000_000}
FIRST_PHASE_MEET_EFFORT = 3.0 * NODES_PER_SECOND
PHASE_REPAIR_EFFORT = 1.5 * NODES_PER_SECOND  # nodes at most, for repairing a stalled phase before the last
PHASE_STALL = 12  # levels without progress before a phase's beam gives up: with the
# best answer capping later runs, a patient beam costs little (20
# states, four colours: 56.3 moves against 57.9 with 8, where a state
# whose every run stalled ended in repairs)
LAST_PHASE_AT_LEAST = {8: 16}  # per grid size, moves the last four-colour phase takes at fewest (on
# 8x8 its shortest in 240 runs: 20 states x 12 orders); a run that
# cannot beat the best answer by then stops before it

# Repairs (repair.py)

#: (children of a level at most, cycles tried): a first look of three forward levels (on 8x8
#: up to 10 moves, ~10 ms a cycle), then four (11 moves, ~60 ms). Five (12 moves) would take
#: ~1 s a cycle, in one kernel call that no deadline interrupts: a cell exchange is cheaper.
REPAIR_LADDER = ((1_000, 24), (30_000, 6))
REPAIR_GOOD = 0.25  # cells fixed per move that end the screening at once (a pair in 8)
REPAIR_WHOLE_UP_TO = 6  # misplaced cells at most for trying the whole state at once
REPAIR_DEEP_WHEN = 2.0 * NODES_PER_SECOND  # nodes left at least, for a table step's deeper searches
REPAIR_TRIES = REPAIR_LADDER[0][1]  # candidates of each kind drawn per step

# Trees held deeper than stored (tables.py)

#: grids whose tree the solver deepens in memory beyond the stored default:
#: (height held exactly, height with one more level held as a filter). The
#: 8x8 two-colour tree is stored to depth 7 (3.2 M classes); its eighth level
#: (35.9 M classes, 290 MB) is held exactly and its ninth (about 400 M) as a
#: 1 GiB filter. Meet in the middle then answers exactly up to 15 moves
#: instead of 13, the phases' later grids hit their trees sooner, and IDA*
#: hands over to the 6x6 three-colour tree one level earlier (docs/solver.md).
DERIVED = {(6, 3): (8, 9), (8, 2): (8, 9), (8, 3): (7, 8)}
#: minutes deriving them takes once on 2 cores (measured), for the notice before the first solve
DERIVE_MINUTES = {(6, 3): 3, (8, 2): 3, (8, 3): 6.5}
DERIVE_GROWTH = 12  # a level of 8x8 two colours is 11-13 times the one before
FILTER_CHUNK = 1 << 20

# The thesis' heuristic, Table 4.1 (thesis.py)

#: Table 4.1 (m_i per level) and the maximum depth / k of §4.2, by colours
THESIS_M_I = {2: (3, 8, 13, 16), 3: (3, 8, 13, 16, 25, 30), 4: (3, 8, 13, 16, 25, 30, 40, 55)}
THESIS_K_BEST = {2: 10, 3: 15, 4: 20}
THESIS_PATIENCE = 1  # iterations without a better objective before the tree is consulted

# Transposition tables (transpositions.py)

SWAP_MOVES_MAX = 24  # moves per entry at most (beyond: left out, as unreachable)
SWAP_REACH = 3_000_000  # children of meet in the middle's last deduplicated level: on
# 8x8 six forward levels, so every pair (at most 13 moves) is found
