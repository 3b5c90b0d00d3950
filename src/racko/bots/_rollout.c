/* The rollout kernel of racko's expert: racko/bots/rollout.py in C.
 *
 * It makes exactly the moves of rollout.estimate_python, with the same arithmetic in the
 * same order, so that one seed gives the same estimates in both (the tests compare them).
 * Read rollout.py for what the play-outs do; the comments here only say where C differs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RACK 10
#define MAX_DECK 1000

typedef struct {
    int deck_size;
    int needs_run;
    int opponents;
    double slack;
} World;

/* ---- splitmix64, as rollout.SplitMix64 ---- */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void shuffle(int *cards, int count, uint64_t *state) {
    for (int i = count - 1; i > 0; i--) {
        int j = (int)(next_random(state) % (uint64_t)(i + 1));
        int held = cards[i];
        cards[i] = cards[j];
        cards[j] = held;
    }
}

/* ---- the gap valuation, as gaps.RackValuer with GapModel(slack=...) ---- */
static double gap_draws(const World *w, int open_slots, int fits, int pool) {
    if (fits < open_slots) return HUGE_VAL;
    double cost = (double)pool / fits * open_slots * (open_slots + 1) / 2;
    double slacked = cost + w->slack * open_slots;
    return (double)open_slots >= slacked ? (double)open_slots : slacked;
}

static int is_ordered(const int *rack) {
    for (int i = 1; i < RACK; i++)
        if (rack[i] <= rack[i - 1]) return 0;
    return 1;
}

static int longest_run(const int *rack) {
    int best = 1, current = 1;
    for (int i = 1; i < RACK; i++) {
        current = rack[i] == rack[i - 1] + 1 ? current + 1 : 1;
        if (current > best) best = current;
    }
    return best;
}

static int qualifies(const World *w, const int *rack) {
    return is_ordered(rack) && (!w->needs_run || longest_run(rack) >= 3);
}

/* counts[v]: cards of the stock at most v, v = 0 .. deck_size + 1 */
static double gap_cost(const World *w, const int *rack, const int *counts) {
    int top = w->deck_size + 1;
    int pool = counts[top];
    int values[RACK + 2];
    double best[RACK + 2];
    values[0] = 0;
    for (int i = 0; i < RACK; i++) values[i + 1] = rack[i];
    values[RACK + 1] = top;
    int last = RACK + 1;
    best[0] = 0.0;
    for (int j = 1; j <= last; j++) {
        int value = values[j];
        int below = counts[value - 1];
        double cheapest = HUGE_VAL;
        for (int i = 0; i < j; i++) {
            double before = best[i];
            if (before == HUGE_VAL || values[i] >= value) continue;
            int open_slots = j - i - 1;
            double cost;
            if (open_slots == 0) {
                cost = before;
            } else {
                int fits = below - counts[values[i]];
                if (fits < open_slots) continue;
                cost = before + gap_draws(w, open_slots, fits, pool);
            }
            if (cost < cheapest) cheapest = cost;
        }
        best[j] = cheapest;
    }
    return best[last];
}

static int may_come(const int *counts, int top, int card) {
    return 1 <= card && card < top && counts[card] > counts[card - 1];
}

/* as gaps.run_cost; the sets are marks on a scratch array */
static double run_cost(const World *w, const int *rack, const int *counts, unsigned char *marks) {
    if (longest_run(rack) >= 3) return 0.0;
    int top = w->deck_size + 1;
    int pool = counts[top];
    int completions = 0, pairs = 0;
    memset(marks, 0, (size_t)top + 2);
    for (int i = 0; i < RACK - 1; i++) {
        int a = rack[i], b = rack[i + 1];
        if (i + 2 < RACK) {
            int c = rack[i + 2];
            int wanted[3] = {b == a + 1 ? a + 2 : 0, c == b + 1 ? b - 1 : 0, c == a + 2 ? a + 1 : 0};
            for (int k = 0; k < 3; k++)
                if (may_come(counts, top, wanted[k]) && !(marks[wanted[k]] & 1)) {
                    marks[wanted[k]] |= 1;
                    completions++;
                }
        }
        int near[2] = {a + 1, b - 1};
        for (int k = 0; k < 2; k++)
            if (may_come(counts, top, near[k]) && !(marks[near[k]] & 2)) {
                marks[near[k]] |= 2;
                pairs++;
            }
    }
    if (completions) return (double)pool / completions;
    if (pairs) return (double)pool / pairs + (double)pool / 2;
    return 2.0 * pool;
}

static double rack_cost(const World *w, const int *rack, const int *counts, unsigned char *marks) {
    double cost = gap_cost(w, rack, counts);
    return w->needs_run ? cost + run_cost(w, rack, counts, marks) : cost;
}

static double best_placement(const World *w, const int *rack, int card, const int *counts, unsigned char *marks,
                             int *slot) {
    int trial[RACK];
    memcpy(trial, rack, sizeof trial);
    double best_cost = HUGE_VAL;
    *slot = 0;
    for (int i = 0; i < RACK; i++) {
        int previous = trial[i];
        trial[i] = card;
        double cost = rack_cost(w, trial, counts, marks);
        trial[i] = previous;
        if (cost < best_cost) {
            best_cost = cost;
            *slot = i;
        }
    }
    return best_cost;
}

/* ---- one play-out ---- */
typedef struct {
    int *stock; /* top at the end */
    int stock_size;
    int *pile; /* bottom first */
    int pile_size;
    int *counts;
    unsigned char *marks;
} Table;

static void count_stock(const World *w, Table *t) {
    int top = w->deck_size + 1;
    memset(t->counts, 0, sizeof(int) * (size_t)(top + 1));
    for (int i = 0; i < t->stock_size; i++) t->counts[t->stock[i]]++;
    for (int v = 1; v <= top; v++) t->counts[v] += t->counts[v - 1];
}

/* the stock's top card, turning the pile over first when the stock is empty; 0 when there is none */
static int draw(Table *t) {
    if (t->stock_size == 0) {
        if (t->pile_size < 2) return 0;
        for (int i = 0; i < t->pile_size; i++) t->stock[i] = t->pile[t->pile_size - 1 - i];
        t->stock_size = t->pile_size;
        t->pile_size = 0;
        t->pile[t->pile_size++] = t->stock[--t->stock_size];
    }
    return t->stock[--t->stock_size];
}

static int draw_and_place(const World *w, int *rack, Table *t) {
    int card = draw(t);
    if (!card) return 0;
    count_stock(w, t);
    int slot;
    double cost = best_placement(w, rack, card, t->counts, t->marks, &slot);
    if (cost < rack_cost(w, rack, t->counts, t->marks)) {
        t->pile[t->pile_size++] = rack[slot];
        rack[slot] = card;
    } else {
        t->pile[t->pile_size++] = card;
    }
    return 1;
}

static int turns_to_go(const World *w, int *rack, Table *t, int cap);

static double play_out(const World *w, const int *start_rack, int start_top, int draws_first, Table *t, int cap,
                       const double *denial) {
    int rack[RACK];
    memcpy(rack, start_rack, sizeof rack);
    t->pile_size = 0;
    if (start_top) t->pile[t->pile_size++] = start_top;
    if (draws_first && !draw_and_place(w, rack, t)) return cap + 1;
    /* going out ends the round: the card discarded then is nobody's gain */
    double denied = denial && t->pile_size && !qualifies(w, rack) ? denial[t->pile[t->pile_size - 1]] : 0.0;
    return turns_to_go(w, rack, t, cap) + denied;
}

static int turns_to_go(const World *w, int *rack, Table *t, int cap) {
    int turns = 1;
    while (!qualifies(w, rack)) {
        if (turns > cap) return cap + 1;
        for (int o = 0; o < w->opponents; o++) {
            int card = draw(t);
            if (!card) return cap + 1;
            t->pile[t->pile_size++] = card;
        }
        turns++;
        count_stock(w, t);
        double now = rack_cost(w, rack, t->counts, t->marks);
        if (t->pile_size) {
            int slot;
            double take_cost = best_placement(w, rack, t->pile[t->pile_size - 1], t->counts, t->marks, &slot);
            if (take_cost < now) {
                int taken = t->pile[t->pile_size - 1];
                t->pile[t->pile_size - 1] = rack[slot];
                rack[slot] = taken;
                continue;
            }
        }
        if (!draw_and_place(w, rack, t)) return cap + 1;
    }
    return turns;
}

/* ---- Python glue ---- */
static int read_cards(PyObject *sequence, int deck_size, int **cards, Py_ssize_t *count, const char *what) {
    PyObject *fast = PySequence_Fast(sequence, what);
    if (!fast) return 0;
    *count = PySequence_Fast_GET_SIZE(fast);
    *cards = malloc(sizeof(int) * (size_t)(*count + 1));
    if (!*cards) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t i = 0; i < *count; i++) {
        long card = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (card == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return 0;
        }
        if (card < 1 || card > deck_size) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: card %ld is not in the deck", what, card);
            return 0;
        }
        (*cards)[i] = (int)card;
    }
    Py_DECREF(fast);
    return 1;
}

static PyObject *estimate(PyObject *self, PyObject *args) {
    (void)self;
    int deck_size, needs_run, opponents, rollouts, cap;
    double slack;
    unsigned long long seed;
    PyObject *may_come_obj, *known_obj, *denial_obj, *candidates_obj;
    if (!PyArg_ParseTuple(args, "iOOpidOOiKi", &deck_size, &may_come_obj, &known_obj, &needs_run, &opponents, &slack,
                          &denial_obj, &candidates_obj, &rollouts, &seed, &cap))
        return NULL;
    if (deck_size < RACK + 2 || deck_size > MAX_DECK || opponents < 0 || rollouts < 1 || cap < 1) {
        PyErr_SetString(PyExc_ValueError, "deck size, opponents, rollouts or cap out of range");
        return NULL;
    }
    World w = {deck_size, needs_run, opponents, slack};
    int *may_come = NULL, *known = NULL, *rest = NULL, *stock = NULL, *work_stock = NULL, *pile = NULL,
        *counts = NULL, *racks = NULL, *tops = NULL, *draws_first = NULL;
    unsigned char *marks = NULL, *in_known = NULL;
    double *totals = NULL, *denial = NULL;
    PyObject *result = NULL, *candidates = NULL, *denial_seq = NULL;
    Py_ssize_t may_count, known_count, count = 0;
    if (!read_cards(may_come_obj, deck_size, &may_come, &may_count, "may_come")) goto done;
    if (!read_cards(known_obj, deck_size, &known, &known_count, "known_order")) goto done;
    denial_seq = PySequence_Fast(denial_obj, "denial");
    if (!denial_seq) goto done;
    Py_ssize_t denial_count = PySequence_Fast_GET_SIZE(denial_seq);
    if (denial_count) {
        if (denial_count != deck_size + 1) {
            PyErr_SetString(PyExc_ValueError, "denial costs are given per card, deck size + 1 values");
            goto done;
        }
        denial = malloc(sizeof(double) * (size_t)denial_count);
        if (!denial) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < denial_count; i++) {
            denial[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(denial_seq, i));
            if (denial[i] == -1.0 && PyErr_Occurred()) goto done;
        }
    }
    candidates = PySequence_Fast(candidates_obj, "candidates");
    if (!candidates) goto done;
    count = PySequence_Fast_GET_SIZE(candidates);
    size_t deck_cards = (size_t)deck_size + 3;
    rest = malloc(sizeof(int) * (size_t)(may_count + 1));
    stock = malloc(sizeof(int) * deck_cards);
    work_stock = malloc(sizeof(int) * deck_cards);
    pile = malloc(sizeof(int) * deck_cards * 2);
    counts = malloc(sizeof(int) * deck_cards);
    marks = malloc(deck_cards);
    in_known = calloc(deck_cards, 1);
    racks = malloc(sizeof(int) * RACK * (size_t)(count + 1));
    tops = malloc(sizeof(int) * (size_t)(count + 1));
    draws_first = malloc(sizeof(int) * (size_t)(count + 1));
    totals = calloc((size_t)(count + 1), sizeof(double));
    if (!rest || !stock || !work_stock || !pile || !counts || !marks || !in_known || !racks || !tops || !draws_first ||
        !totals) {
        PyErr_NoMemory();
        goto done;
    }
    if (may_count > deck_size) {
        PyErr_SetString(PyExc_ValueError, "more cards may come than the deck holds");
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(candidates, i);
        PyObject *rack_obj;
        int top, first;
        if (!PyArg_ParseTuple(item, "Oip", &rack_obj, &top, &first)) goto done;
        int *cards;
        Py_ssize_t size;
        if (!read_cards(rack_obj, deck_size, &cards, &size, "rack")) goto done;
        if (size != RACK) {
            free(cards);
            PyErr_SetString(PyExc_ValueError, "a rack holds ten cards");
            goto done;
        }
        memcpy(racks + RACK * i, cards, sizeof(int) * RACK);
        free(cards);
        if (top < 0 || top > deck_size) {
            PyErr_SetString(PyExc_ValueError, "top discard out of range");
            goto done;
        }
        tops[i] = top;
        draws_first[i] = first;
    }
    /* The stock is built from these cards: each card once at most, or it would overrun its deck-sized buffer. */
    if (known_count > deck_size || may_count > deck_size) {
        PyErr_SetString(PyExc_ValueError, "more cards may come than the deck holds");
        goto done;
    }
    for (Py_ssize_t i = 0; i < known_count; i++) {
        if (in_known[known[i]]) {
            PyErr_SetString(PyExc_ValueError, "known_order names a card twice");
            goto done;
        }
        in_known[known[i]] = 1;
    }
    memset(marks, 0, deck_cards);
    for (Py_ssize_t i = 0; i < may_count; i++) {
        if (marks[may_come[i]]) {
            PyErr_SetString(PyExc_ValueError, "may_come names a card twice");
            goto done;
        }
        marks[may_come[i]] = 1;
    }
    memset(marks, 0, deck_cards); /* scratch for the play-outs again */
    int rest_count = 0;
    for (Py_ssize_t i = 0; i < may_count; i++)
        if (!in_known[may_come[i]]) rest[rest_count++] = may_come[i];
    uint64_t state = (uint64_t)seed;
    Table table = {work_stock, 0, pile, 0, counts, marks};
    Py_BEGIN_ALLOW_THREADS
    for (int r = 0; r < rollouts; r++) {
        shuffle(rest, rest_count, &state);
        int size = 0;
        for (int i = rest_count - 1; i >= 0; i--) stock[size++] = rest[i];
        for (Py_ssize_t i = known_count - 1; i >= 0; i--) stock[size++] = known[i];
        for (Py_ssize_t c = 0; c < count; c++) {
            memcpy(work_stock, stock, sizeof(int) * (size_t)size);
            table.stock_size = size;
            totals[c] += play_out(&w, racks + RACK * c, tops[c], draws_first[c], &table, cap, denial);
        }
        /* the reference shuffles a fresh copy of the unshuffled cards each time */
        rest_count = 0;
        for (Py_ssize_t i = 0; i < may_count; i++)
            if (!in_known[may_come[i]]) rest[rest_count++] = may_come[i];
    }
    Py_END_ALLOW_THREADS
    result = PyList_New(count);
    if (!result) goto done;
    for (Py_ssize_t c = 0; c < count; c++) PyList_SET_ITEM(result, c, PyFloat_FromDouble(totals[c] / rollouts));
done:
    Py_XDECREF(candidates);
    Py_XDECREF(denial_seq);
    free(denial);
    free(may_come);
    free(known);
    free(rest);
    free(stock);
    free(work_stock);
    free(pile);
    free(counts);
    free(marks);
    free(in_known);
    free(racks);
    free(tops);
    free(draws_first);
    free(totals);
    return result;
}

static PyMethodDef methods[] = {
    {"estimate", estimate, METH_VARARGS, "Mean turns to Rack-O of each candidate (see racko.bots.rollout)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rollout", "racko's rollout kernel in C.", -1, methods};

PyMODINIT_FUNC PyInit__rollout(void) { return PyModule_Create(&module); }
