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
    double power;  /* on P / m */
    double edge;   /* factor for a gap at an end of the rack */
    int weighs_draw; /* takes the discard only when it beats the average draw, as hard does */
    double **gap_tables; /* per pool 0 .. deck_size, gap_table's lookups (NULL until met); NULL: none */
} World;

/* the world of a hard-like opponent in a 2-player round: the plain gap model, one other seat */
static World plain_world(int deck_size, int needs_run) {
    World w = {deck_size, needs_run, 1, 0.0, 1.0, 1.0, 0, NULL};
    return w;
}

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

/* ---- the gap valuation, as gaps.RackValuer with GapModel(slack=..., edge=..., power=...) ---- */
static double gap_draws(const World *w, int open_slots, int fits, int pool, int at_edge) {
    if (fits < open_slots) return HUGE_VAL;
    double ratio = (double)pool / fits;
    if (w->power != 1.0) ratio = pow(ratio, w->power);
    double cost = ratio * open_slots * (open_slots + 1) / 2;
    if (at_edge) cost *= w->edge;
    double slacked = cost + w->slack * open_slots;
    return (double)open_slots >= slacked ? (double)open_slots : slacked;
}

/* gap_draws of every (at_edge, open_slots, fits) for one pool into table (2 * (RACK + 1) * (pool + 1) values), at
   [(at_edge * (RACK + 1) + open_slots) * (pool + 1) + fits]: made by gap_draws itself, so that a lookup gives the
   very same value without a division (the costs' hot spot) */
static void fill_gap_table(const World *w, int pool, double *table) {
    for (int at_edge = 0; at_edge < 2; at_edge++)
        for (int open_slots = 0; open_slots <= RACK; open_slots++)
            for (int fits = 0; fits <= pool; fits++)
                table[(at_edge * (RACK + 1) + open_slots) * (pool + 1) + fits] =
                    open_slots ? gap_draws(w, open_slots, fits, pool, at_edge) : 0.0;
}

/* the table of fill_gap_table for this pool, made the first time the pool is met and kept for the kernel call;
   NULL when there are no tables */
static const double *gap_table(const World *w, int pool) {
    if (!w->gap_tables || pool < 0 || pool > w->deck_size) return NULL;
    double *table = w->gap_tables[pool];
    if (table) return table;
    table = malloc(sizeof(double) * 2 * (RACK + 1) * (size_t)(pool + 1));
    if (!table) return NULL;
    fill_gap_table(w, pool, table);
    w->gap_tables[pool] = table;
    return table;
}

/* gives w its (empty) tables of gap_draws; 0 with a MemoryError set when out of memory */
static int open_gap_tables(World *w) {
    w->gap_tables = calloc((size_t)w->deck_size + 1, sizeof(double *));
    if (w->gap_tables) return 1;
    PyErr_NoMemory();
    return 0;
}

static void close_gap_tables(World *w) {
    if (!w->gap_tables) return;
    for (int pool = 0; pool <= w->deck_size; pool++) free(w->gap_tables[pool]);
    free(w->gap_tables);
    w->gap_tables = NULL;
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

/* One step of the gap programme: the cost of keeping position j next after kept position i, whose own best cost is
   before (the open slots between them filled by draws of the `under - counts[values[i]]` cards that fit there);
   HUGE_VAL where it cannot be.  The one place gap_cost_from and best_placement take a step, so both add the very same
   sums. */
static inline double stretch_cost(const World *w, const double *table, int pool, const int *values, const int *counts,
                                  int i, int j, int last, int under, double before) {
    if (before == HUGE_VAL || values[i] >= values[j]) return HUGE_VAL;
    int open_slots = j - i - 1;
    if (open_slots == 0) return before;
    int fits = under - counts[values[i]];
    if (fits < open_slots) return HUGE_VAL;
    int at_edge = i == 0 || j == last;
    return before + (table ? table[(at_edge * (RACK + 1) + open_slots) * (pool + 1) + fits]
                           : gap_draws(w, open_slots, fits, pool, at_edge));
}

/* gap_cost's dynamic programme over values[0 .. RACK + 1] (0, the rack, deck_size + 1) from position start on:
   best[j], the cheapest way to keep position j with every kept card below it in order, for j >= start (best[0 ..
   start - 1] given; start >= 1); returns best[RACK + 1].  best[j] reads values[0 .. j] only, so a rack that differs
   from another from slot start - 1 on shares its best[0 .. start - 1]: the very same sums in the same order. */
static double gap_cost_from(const World *w, const int *values, const int *counts, double *best, int start) {
    int top = w->deck_size + 1;
    int pool = counts[top];
    const double *table = gap_table(w, pool);
    int last = RACK + 1;
    for (int j = start; j <= last; j++) {
        int value = values[j];
        int below = counts[value - 1];
        double cheapest = HUGE_VAL;
        for (int i = 0; i < j; i++) {
            double cost = stretch_cost(w, table, pool, values, counts, i, j, last, below, best[i]);
            if (cost < cheapest) cheapest = cost;
        }
        best[j] = cheapest;
    }
    return best[last];
}

/* the values gap_cost_from reads: 0, the rack, deck_size + 1 */
static void gap_values(const World *w, const int *rack, int *values) {
    values[0] = 0;
    for (int i = 0; i < RACK; i++) values[i + 1] = rack[i];
    values[RACK + 1] = w->deck_size + 1;
}

/* counts[v]: cards of the stock at most v, v = 0 .. deck_size + 1 */
static double gap_cost(const World *w, const int *rack, const int *counts) {
    int values[RACK + 2];
    double best[RACK + 2];
    gap_values(w, rack, values);
    best[0] = 0.0;
    return gap_cost_from(w, values, counts, best, 1);
}

static int may_come(const int *counts, int top, int card) {
    return 1 <= card && card < top && counts[card] > counts[card - 1];
}

/* as gaps.RUN_FIT and gaps.RUN_FROM_SCRATCH */
#define RUN_FIT 5
#define RUN_FROM_SCRATCH 2.0

/* as gaps._has_room */
static int has_room(int first, int low, int deck_size) {
    return 0 <= first && first + 2 < RACK && low >= first + 1 && low + 2 <= deck_size - (RACK - 3 - first);
}

/* as gaps.run_fits */
static int run_fits(const int *rack, int first, int low, int deck_size) {
    if (!has_room(first, low, deck_size)) return 0;
    if ((first == 0 || rack[first - 1] < low) && (first + 3 == RACK || rack[first + 3] > low + 2)) return 1;
    return abs((2 * low + 1) * RACK - deck_size - 2 * deck_size * (first + 1)) <= deck_size * RUN_FIT;
}

/* as gaps._two_away */
static double two_away(int pool, int pairs) {
    double scratch = RUN_FROM_SCRATCH * pool;
    if (!pairs) return scratch;
    return 1 / (1 / ((double)pool / pairs + (double)pool / 2) + 1 / scratch);
}

/* adds card to the set marked by bit in marks; 1 when it was not there yet */
static int add_mark(unsigned char *marks, int card, unsigned char bit) {
    if (marks[card] & bit) return 0;
    marks[card] |= bit;
    return 1;
}

/* as gaps._neighbour_fixes */
static int neighbour_fixes(const int *rack, int first, const int *counts, int deck_size) {
    int low = rack[first];
    if (rack[first + 1] != low + 1 || rack[first + 2] != low + 2 || !has_room(first, low, deck_size)) return 0;
    int below_in_order = first == 0 || rack[first - 1] < low;
    int above_in_order = first + 3 == RACK || rack[first + 3] > low + 2;
    if (below_in_order == above_in_order) return 0;
    return below_in_order ? counts[deck_size] - counts[low + 2] : counts[low - 1];
}

/* as gaps.has_run */
static int has_run(const int *rack, int deck_size) {
    for (int i = 0; i < RACK - 2; i++)
        if (rack[i + 1] == rack[i] + 1 && rack[i + 2] == rack[i] + 2 && run_fits(rack, i, rack[i], deck_size)) return 1;
    return longest_run(rack) >= 3 && is_ordered(rack);
}

/* as gaps.run_cost; the sets are marks on a scratch array */
static double run_cost(const World *w, const int *rack, const int *counts, unsigned char *marks) {
    int top = w->deck_size + 1, deck = w->deck_size;
    if (has_run(rack, deck)) return 0.0;
    int pool = counts[top];
    int completions = 0, pairs = 0;
    memset(marks, 0, (size_t)top + 2);
    for (int i = 0; i < RACK - 1; i++) {
        int a = rack[i], b = rack[i + 1];
        if (i + 2 < RACK) {
            int c = rack[i + 2];
            if (b == a + 1 && may_come(counts, top, a + 2) && run_fits(rack, i, a, deck))
                completions += add_mark(marks, a + 2, 1);
            if (c == b + 1 && may_come(counts, top, b - 1) && run_fits(rack, i, b - 1, deck))
                completions += add_mark(marks, b - 1, 1);
            if (c == a + 2 && may_come(counts, top, a + 1) && run_fits(rack, i, a, deck))
                completions += add_mark(marks, a + 1, 1);
        }
        if (may_come(counts, top, a + 1) && (run_fits(rack, i - 1, a - 1, deck) || run_fits(rack, i, a, deck)))
            pairs += add_mark(marks, a + 1, 2);
        if (may_come(counts, top, b - 1) && (run_fits(rack, i - 1, b - 2, deck) || run_fits(rack, i, b - 1, deck)))
            pairs += add_mark(marks, b - 1, 2);
    }
    int ways = completions;
    for (int i = 0; i < RACK - 2; i++) ways += neighbour_fixes(rack, i, counts, deck);
    if (!ways) return two_away(pool, pairs);
    double rate = (double)(ways < pool ? ways : pool) / pool + 1 / two_away(pool, pairs);
    double one_away = 1 / rate, bound = two_away(pool, pool < 2 * (RACK - 1) ? pool : 2 * (RACK - 1));
    return one_away < bound ? one_away : bound;
}

static double rack_cost(const World *w, const int *rack, const int *counts, unsigned char *marks) {
    double cost = gap_cost(w, rack, counts);
    return w->needs_run ? cost + run_cost(w, rack, counts, marks) : cost;
}

/* the cheapest rack after putting card in one of its slots (the first such slot in *slot), as rack_cost of each in
   turn, and the very same figure.  The gap costs share the rack's own programme: below the slot its best[] as they
   are, and above it each position's cheapest way from a kept position below the slot (the same sums, so that the
   least of them is the same whichever way it is found); a slot whose gap cost alone is no cheaper than the best
   found skips its run cost (never negative, so that the sum could not be cheaper either). */
static double best_placement(const World *w, const int *rack, int card, const int *counts, unsigned char *marks,
                             int *slot) {
    int trial[RACK], values[RACK + 2], last = RACK + 1, top = w->deck_size + 1;
    int pool = counts[top];
    const double *table = gap_table(w, pool);
    /* below[j][k]: the cheapest way to keep position j of the rack coming from a kept position at most k (k < j) */
    double base[RACK + 2], best[RACK + 2], below[RACK + 2][RACK + 2];
    memcpy(trial, rack, sizeof trial);
    gap_values(w, rack, values);
    base[0] = 0.0;
    for (int j = 1; j <= last; j++) {
        int value = values[j];
        int under = counts[value - 1];
        double cheapest = HUGE_VAL;
        for (int i = 0; i < j; i++) {
            double cost = stretch_cost(w, table, pool, values, counts, i, j, last, under, base[i]);
            if (cost < cheapest) cheapest = cost;
            below[j][i] = cheapest;
        }
        base[j] = cheapest;
    }
    double best_cost = HUGE_VAL;
    *slot = 0;
    for (int s = 0; s < RACK; s++) {
        int previous = trial[s];
        trial[s] = card;
        values[s + 1] = card;
        memcpy(best, base, sizeof(double) * (size_t)(s + 1));
        for (int j = s + 1; j <= last; j++) {
            int value = values[j];
            int under = counts[value - 1];
            /* from below the slot: the rack's own ways, unless j is the slot itself */
            double cheapest = j == s + 1 ? HUGE_VAL : below[j][s];
            for (int i = j == s + 1 ? 0 : s + 1; i < j; i++) {
                double cost = stretch_cost(w, table, pool, values, counts, i, j, last, under, best[i]);
                if (cost < cheapest) cheapest = cost;
            }
            best[j] = cheapest;
        }
        double cost = best[last];
        if (w->needs_run && cost < best_cost) cost += run_cost(w, trial, counts, marks);
        trial[s] = previous;
        values[s + 1] = previous;
        if (cost < best_cost) {
            best_cost = cost;
            *slot = s;
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
    double *gaps; /* draw_cost's scratch: gap_draws looked up, 2 * (RACK + 1) * (deck_size + 3) values */
} Table;

/* counts[v]: the cards of the stock and of extra (extra_count of them) at most v */
static void count_cards(const World *w, Table *t, const int *extra, int extra_count) {
    int top = w->deck_size + 1;
    memset(t->counts, 0, sizeof(int) * (size_t)(top + 1));
    for (int i = 0; i < t->stock_size; i++) t->counts[t->stock[i]]++;
    for (int i = 0; i < extra_count; i++) t->counts[extra[i]]++;
    for (int v = 1; v <= top; v++) t->counts[v] += t->counts[v - 1];
}

static void count_stock(const World *w, Table *t) { count_cards(w, t, NULL, 0); }

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

/* the draws a gap between kept cards a < b, open_slots apart, costs (0 for neighbours), from the table of
   gap_draws for this pool: gaps[(at_edge * (RACK + 1) + open_slots) * (pool + 1) + fits] */
static double link_cost(const double *gaps, const int *counts, int pool, int a, int b, int open_slots, int at_edge) {
    if (open_slots == 0) return 0.0;
    int fits = counts[b - 1] - counts[a];
    if (fits < open_slots) return HUGE_VAL;
    return gaps[(at_edge * (RACK + 1) + open_slots) * (pool + 1) + fits];
}

/* as rollout._draw_cost: the average over the stock's cards (bottom first) of the cheapest rack after keeping the
   card where it helps most, or of now when it helps nowhere */
static double draw_cost(const World *w, const int *rack, const Table *t, double now) {
    if (t->stock_size == 0) return now;
    const int *counts = t->counts;
    double total = 0.0;
    if (w->needs_run) { /* the run's cost does not split at a slot: every placement in full */
        for (int i = 0; i < t->stock_size; i++) {
            int slot;
            double cost = best_placement(w, rack, t->stock[i], counts, t->marks, &slot);
            total += cost < now ? cost : now;
        }
        return total / t->stock_size;
    }
    int pool = counts[w->deck_size + 1];
    const double *gaps = gap_table(w, pool);
    if (!gaps) { /* no tables: this call's own, in the scratch */
        fill_gap_table(w, pool, t->gaps);
        gaps = t->gaps;
    }
    int last = RACK + 1, values[RACK + 2];
    double before[RACK + 2], after[RACK + 2], skipping[RACK + 2];
    values[0] = 0;
    for (int i = 0; i < RACK; i++) values[i + 1] = rack[i];
    values[last] = w->deck_size + 1;
    /* before[j]: the cheapest kept sequence from the bottom to position j, keeping j; after[j]: from j to the top */
    before[0] = 0.0;
    for (int j = 1; j <= last; j++) {
        before[j] = HUGE_VAL;
        for (int i = 0; i < j; i++)
            if (values[i] < values[j]) {
                double cost =
                    before[i] + link_cost(gaps, counts, pool, values[i], values[j], j - i - 1, i == 0 || j == last);
                if (cost < before[j]) before[j] = cost;
            }
    }
    after[last] = 0.0;
    for (int j = last - 1; j >= 0; j--) {
        after[j] = HUGE_VAL;
        for (int k = j + 1; k <= last; k++)
            if (values[j] < values[k]) {
                double cost =
                    link_cost(gaps, counts, pool, values[j], values[k], k - j - 1, j == 0 || k == last) + after[k];
                if (cost < after[j]) after[j] = cost;
            }
    }
    /* skipping[p]: the cheapest sequence that does not keep position p, whatever card lands there */
    for (int p = 1; p < last; p++) {
        skipping[p] = HUGE_VAL;
        for (int i = 0; i < p; i++)
            for (int k = p + 1; k <= last; k++)
                if (values[i] < values[k]) {
                    double cost = before[i] +
                                  link_cost(gaps, counts, pool, values[i], values[k], k - i - 1, i == 0 || k == last) +
                                  after[k];
                    if (cost < skipping[p]) skipping[p] = cost;
                }
    }
    for (int n = 0; n < t->stock_size; n++) {
        int card = t->stock[n];
        double best = now;
        for (int p = 1; p < last; p++) {
            double into = HUGE_VAL, out = HUGE_VAL;
            for (int i = 0; i < p; i++)
                if (values[i] < card) {
                    double cost = before[i] + link_cost(gaps, counts, pool, values[i], card, p - i - 1, i == 0);
                    if (cost < into) into = cost;
                }
            for (int k = p + 1; k <= last; k++)
                if (card < values[k]) {
                    double cost = link_cost(gaps, counts, pool, card, values[k], k - p - 1, k == last) + after[k];
                    if (cost < out) out = cost;
                }
            double through = into + out;
            double cost = through < skipping[p] ? through : skipping[p];
            if (cost < best) best = cost;
        }
        total += best;
    }
    return total / t->stock_size;
}

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
            if (take_cost < now && (!w->weighs_draw || take_cost < draw_cost(w, rack, t, now))) {
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

/* ---- playing styles, as racko.bots.styles: the types of player the opponent model knows ---- */
enum { GAP_STYLE = 0, BAND_STYLE = 1, SEQUENCE_STYLE = 2, STYLE_KINDS = 3 };
#define MAX_STYLES 4
#define GAINS 1e-9

/* how a style is taken to play (the posterior's, the races' and wants' opponent): take_spread and take_margin shape
   the chance to take the top discard (a logistic in what it gains, less the margin), place_spread the choice of slot
   (a softmax over what each gains), floor the share of any legal choice at random; shape is band's width or
   sequence's tolerance */
typedef struct {
    int kind;
    double weight; /* the prior chance of this style */
    double take_spread, place_spread, take_margin, floor, shape;
} Style;

/* as styles.place_of */
static double place_of(int card, int deck_size) { return (card - 0.5) * RACK / deck_size - 0.5; }

static int in_order_around(const int *rack, int slot, int card) {
    return (slot == 0 || rack[slot - 1] < card) + (slot == RACK - 1 || card < rack[slot + 1]);
}

/* as styles.band_gain: 0 when slot is outside the card's band, else 1 with the gain in *gain */
static int band_gain(const int *rack, int slot, int card, int deck_size, double width, double *gain) {
    if (fabs(slot - place_of(card, deck_size)) > width + GAINS) return 0;
    double closer = fabs(slot - place_of(rack[slot], deck_size)) - fabs(slot - place_of(card, deck_size));
    *gain = closer + (in_order_around(rack, slot, card) - in_order_around(rack, slot, rack[slot]));
    return 1;
}

/* as styles.band_slot: the best slot (-1 for none in the band), its gain in *gain */
static int band_slot(const int *rack, int card, int deck_size, double width, double *gain) {
    int best_slot = -1;
    *gain = -HUGE_VAL;
    for (int slot = 0; slot < RACK; slot++) {
        double g;
        if (band_gain(rack, slot, card, deck_size, width, &g) && g > *gain + GAINS) {
            *gain = g;
            best_slot = slot;
        }
    }
    return best_slot;
}

/* as styles.sequence_range */
static void sequence_range(int below, int slot, int deck_size, double tolerance, int *low, int *high) {
    double share = (double)(deck_size - below) / (RACK - slot);
    int step = (int)(tolerance * share);
    int room = deck_size - (RACK - 1 - slot);
    *low = below + 1;
    *high = below + (step > 1 ? step : 1);
    if (*high > room) *high = room;
}

/* as styles.frontier */
static int frontier(const int *rack, int deck_size, double tolerance) {
    int below = 0;
    for (int slot = 0; slot < RACK; slot++) {
        int low, high;
        sequence_range(below, slot, deck_size, tolerance, &low, &high);
        if (rack[slot] < low || rack[slot] > high) return slot;
        below = rack[slot];
    }
    return RACK;
}

static int bucket_slot(int card, int deck_size) { return (card - 1) * RACK / deck_size; }

/* as styles.sequence_slot: the slot (-1 for none), how much it is wanted there in *want (2, 1 or 0) */
static int sequence_slot(const int *rack, int card, int deck_size, double tolerance, int *want) {
    int built = frontier(rack, deck_size, tolerance);
    *want = 0;
    if (built == RACK) return -1;
    int low, high;
    sequence_range(built ? rack[built - 1] : 0, built, deck_size, tolerance, &low, &high);
    if (low <= card && card <= high) {
        *want = 2;
        return built;
    }
    int bucket = bucket_slot(card, deck_size);
    if (bucket > built && bucket_slot(rack[bucket], deck_size) != bucket) {
        *want = 1;
        return bucket;
    }
    return -1;
}

/* as bucket.run_slot: a rack in order without a run of three, the slot where card keeps it in order and makes its
   longest run longer (the longest such run, the lowest slot among equals); -1 for none */
static int run_slot(const int *rack, int card) {
    if (!is_ordered(rack) || longest_run(rack) >= 3) return -1;
    int best = -1, best_run = longest_run(rack), trial[RACK];
    memcpy(trial, rack, sizeof trial);
    for (int slot = 0; slot < RACK; slot++) {
        trial[slot] = card;
        int run = longest_run(trial);
        if (is_ordered(trial) && run > best_run) {
            best = slot;
            best_run = run;
        }
        trial[slot] = rack[slot];
    }
    return best;
}

/* the slot where a band or sequence player puts card (a discard it would take, or a card it drew), -1 when it
   would rather not have it: as styles._StyleBot */
static int style_slot(const Style *style, const int *rack, int card, int deck_size, int needs_run) {
    if (needs_run) {
        int slot = run_slot(rack, card);
        if (slot >= 0) return slot;
    }
    if (style->kind == BAND_STYLE) {
        double gain;
        int slot = band_slot(rack, card, deck_size, style->shape, &gain);
        return gain > GAINS ? slot : -1;
    }
    int want;
    int slot = sequence_slot(rack, card, deck_size, style->shape, &want);
    return want > 0 ? slot : -1;
}

/* what a band or sequence player wants from card in each slot (band: its gain; sequence: 2, 1 or 0), in wants;
   valid[slot] 0 where it would never put it (outside the band, not a slot the sequence rule names); under the 2-player
   rule the slot that lengthens a run in a rack in order wins over all (the style's shape + 3) */
static void style_wants(const Style *style, const int *rack, int card, int deck_size, int needs_run, double *wants,
                        int *valid) {
    for (int slot = 0; slot < RACK; slot++) valid[slot] = 0;
    if (style->kind == BAND_STYLE) {
        for (int slot = 0; slot < RACK; slot++) valid[slot] = band_gain(rack, slot, card, deck_size, style->shape, &wants[slot]);
    } else {
        int want, slot = sequence_slot(rack, card, deck_size, style->shape, &want);
        if (slot >= 0) {
            valid[slot] = 1;
            wants[slot] = want;
        }
    }
    if (needs_run) {
        int slot = run_slot(rack, card);
        if (slot >= 0) {
            valid[slot] = 1;
            wants[slot] = style->kind == BAND_STYLE ? RACK : 3;
        }
    }
}

/* ---- Python glue ---- */
/* a sequence of ints from low to high into a fresh array (one spare place); out_of_range formats the error from
   the sequence's name and the value */
static int read_bounded(PyObject *sequence, int low, int high, int **values, Py_ssize_t *count, const char *what,
                        const char *out_of_range) {
    PyObject *fast = PySequence_Fast(sequence, what);
    if (!fast) return 0;
    *count = PySequence_Fast_GET_SIZE(fast);
    *values = malloc(sizeof(int) * (size_t)(*count + 1));
    if (!*values) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t i = 0; i < *count; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return 0;
        }
        if (value < low || value > high) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, out_of_range, what, value);
            return 0;
        }
        (*values)[i] = (int)value;
    }
    Py_DECREF(fast);
    return 1;
}

static int read_cards(PyObject *sequence, int deck_size, int **cards, Py_ssize_t *count, const char *what) {
    return read_bounded(sequence, 1, deck_size, cards, count, what, "%s: card %ld is not in the deck");
}

static int read_ints(PyObject *sequence, int low, int high, int **values, Py_ssize_t *count, const char *what) {
    return read_bounded(sequence, low, high, values, count, what, "%s: %ld is out of range");
}

/* The candidate moves as the Python side sends them, each (rack after the move, top discard after it, whether the
   seat still draws), into racks (RACK cards each), tops and draws_first. 0 with a Python error set if one is bad. */
static int read_candidates(PyObject *candidates, Py_ssize_t count, int deck_size, int *racks, int *tops,
                           int *draws_first) {
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(candidates, i);
        PyObject *rack_obj;
        int top, first;
        if (!PyArg_ParseTuple(item, "Oii", &rack_obj, &top, &first)) return 0;
        int *cards;
        Py_ssize_t size;
        if (!read_cards(rack_obj, deck_size, &cards, &size, "rack")) return 0;
        if (size != RACK) {
            free(cards);
            PyErr_SetString(PyExc_ValueError, "a rack holds ten cards");
            return 0;
        }
        memcpy(racks + RACK * i, cards, sizeof(int) * RACK);
        free(cards);
        if (top < 0 || top > deck_size) {
            PyErr_SetString(PyExc_ValueError, "top discard out of range");
            return 0;
        }
        if (first < 0 || first > 2) {
            PyErr_SetString(PyExc_ValueError, "draws_first: 0, 1, or 2 for the opponent first (race)");
            return 0;
        }
        tops[i] = top;
        draws_first[i] = first;
    }
    return 1;
}

static PyObject *estimate(PyObject *self, PyObject *args) {
    (void)self;
    int deck_size, needs_run, opponents, rollouts, cap;
    int weighs_draw;
    double slack, power, edge;
    unsigned long long seed;
    PyObject *may_come_obj, *known_obj, *denial_obj, *candidates_obj;
    if (!PyArg_ParseTuple(args, "iOOpidddpOOiKi", &deck_size, &may_come_obj, &known_obj, &needs_run, &opponents,
                          &slack, &power, &edge, &weighs_draw, &denial_obj, &candidates_obj, &rollouts, &seed, &cap))
        return NULL;
    if (deck_size < RACK + 2 || deck_size > MAX_DECK || opponents < 0 || rollouts < 1 || cap < 1) {
        PyErr_SetString(PyExc_ValueError, "deck size, opponents, rollouts or cap out of range");
        return NULL;
    }
    World w = {deck_size, needs_run, opponents, slack, power, edge, weighs_draw, NULL};
    int *may_come = NULL, *known = NULL, *rest = NULL, *stock = NULL, *work_stock = NULL, *pile = NULL,
        *counts = NULL, *racks = NULL, *tops = NULL, *draws_first = NULL;
    unsigned char *marks = NULL, *in_known = NULL;
    double *totals = NULL, *denial = NULL, *gaps = NULL;
    PyObject *result = NULL, *candidates = NULL, *denial_seq = NULL;
    Py_ssize_t may_count, known_count, count = 0;
    if (!open_gap_tables(&w)) goto done;
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
    gaps = malloc(sizeof(double) * 2 * (RACK + 1) * deck_cards);
    if (!rest || !stock || !work_stock || !pile || !counts || !marks || !in_known || !racks || !tops || !draws_first ||
        !totals || !gaps) {
        PyErr_NoMemory();
        goto done;
    }
    if (may_count > deck_size) {
        PyErr_SetString(PyExc_ValueError, "more cards may come than the deck holds");
        goto done;
    }
    if (!read_candidates(candidates, count, deck_size, racks, tops, draws_first)) goto done;
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
    Table table = {work_stock, 0, pile, 0, counts, marks, gaps};
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
    close_gap_tables(&w);
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
    free(gaps);
    return result;
}


/* the styles of player as the Python side sends them: (kind, weight, take spread, place spread, take margin, floor,
   shape) each; 0 with a Python error set when one is bad */
static int read_styles(PyObject *styles_obj, Style *styles, int *count) {
    PyObject *fast = PySequence_Fast(styles_obj, "styles");
    if (!fast) return 0;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    int ok = 0;
    if (size < 1 || size > MAX_STYLES) {
        PyErr_SetString(PyExc_ValueError, "styles: one to four");
        goto done;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        Style *s = &styles[i];
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "idddddd", &s->kind, &s->weight, &s->take_spread,
                              &s->place_spread, &s->take_margin, &s->floor, &s->shape))
            goto done;
        if (s->kind < 0 || s->kind >= STYLE_KINDS || !(s->weight >= 0) || !(s->take_spread > 0) ||
            !(s->place_spread > 0) || !(s->floor >= 0 && s->floor < 1) || !(s->shape >= 0) || isinf(s->take_margin) ||
            isnan(s->take_margin)) {
            PyErr_SetString(PyExc_ValueError, "a style out of range");
            goto done;
        }
    }
    *count = (int)size;
    ok = 1;
done:
    Py_DECREF(fast);
    return ok;
}

/* ---- the chance to win (racko.bots.win_chance): a logistic in log(1 + cost) of the racks ---- */
typedef struct {
    double bias, mover, taking, other;
} Chance;

/* the chance that the player to move goes out first: its rack's cost, its cost after taking the top discard (its
   cost when it would not), the other rack's cost; a rack that goes out by taking wins */
static double win_chance(const Chance *c, double mover, double taking, double other) {
    if (taking <= 0) return 1.0;
    if (other <= 0) return 0.0;
    double z = c->bias + c->mover * log1p(mover) + c->taking * log1p(taking) + c->other * log1p(other);
    return 1 / (1 + exp(-z));
}

static int read_chance(PyObject *chance_obj, Chance *chance) {
    return PyArg_ParseTuple(chance_obj, "dddd", &chance->bias, &chance->mover, &chance->taking, &chance->other);
}

/* a style drawn by the styles' weights */
static const Style *pick_style(const Style *styles, int style_count, uint64_t *state) {
    double total = 0.0;
    for (int k = 0; k < style_count; k++) total += styles[k].weight;
    double x = (double)(next_random(state) >> 11) * (1.0 / 9007199254740992.0) * total;
    for (int k = 0; k < style_count - 1; k++)
        if ((x -= styles[k].weight) < 0) return &styles[k];
    return &styles[style_count - 1];
}

/* what a player of this style does with card offered on top of the discard pile: the chance it takes it (a
   logistic in what it gains, its margin and spread) and its rack's cost after putting it where it likes best
   (counts: its pool; now: its cost now); *out: whether that rack goes out */
static double style_take(const World *w, const Style *style, const int *rack, int card, const int *counts,
                         unsigned char *marks, double now, double *after, int *out) {
    int slot = -1, trial[RACK];
    double gain;
    if (style->kind == GAP_STYLE) {
        *after = best_placement(w, rack, card, counts, marks, &slot);
        gain = now - *after;
        memcpy(trial, rack, sizeof trial);
        trial[slot] = card;
    } else {
        double wants[RACK];
        int valid[RACK];
        style_wants(style, rack, card, w->deck_size, w->needs_run, wants, valid);
        gain = -HUGE_VAL;
        for (int k = 0; k < RACK; k++)
            if (valid[k] && wants[k] > gain + GAINS) {
                gain = wants[k];
                slot = k;
            }
        if (slot < 0) {
            *after = now;
            *out = 0;
            return 0.0;
        }
        memcpy(trial, rack, sizeof trial);
        trial[slot] = card;
        *after = rack_cost(w, trial, counts, marks);
    }
    *out = qualifies(w, trial);
    if (*out) *after = 0.0;
    if (*out && style->kind == GAP_STYLE) return 1.0; /* whoever weighs racks sees the card that takes it out */
    double z = (gain - style->take_margin) / style->take_spread;
    if (isnan(z)) z = -50.0;
    if (z > 50) z = 50;
    if (z < -50) z = -50;
    return 1 / (1 + exp(-z));
}

/* ---- races: both seats of a 2-player round played out from sampled hidden racks (racko.bots.race) ---- */
typedef struct {
    int rack[2][RACK];
    Table table; /* the stock and the pile both seats share */
} Race;

/* one turn of a seat: take the top discard when it lowers the rack's cost, else draw and keep the card where it
   lowers the cost; 0 when no card can be had */
static int race_turn(const World *w, Race *r, int seat, int may_take, const Style *style) {
    int *rack = r->rack[seat];
    Table *t = &r->table;
    int slot;
    if (style && style->kind != GAP_STYLE) { /* a band or sequence player, by its rule */
        if (may_take && t->pile_size) {
            int top = t->pile[t->pile_size - 1];
            slot = style_slot(style, rack, top, w->deck_size, w->needs_run);
            if (slot >= 0) {
                t->pile[t->pile_size - 1] = rack[slot];
                rack[slot] = top;
                return 1;
            }
        }
        int card = draw(t);
        if (!card) return 0;
        slot = style_slot(style, rack, card, w->deck_size, w->needs_run);
        if (slot >= 0) {
            t->pile[t->pile_size++] = rack[slot];
            rack[slot] = card;
        } else {
            t->pile[t->pile_size++] = card;
        }
        return 1;
    }
    count_cards(w, t, r->rack[1 - seat], RACK); /* what this seat has not seen: the stock and the other rack */
    double now = rack_cost(w, rack, t->counts, t->marks);
    if (may_take && t->pile_size) {
        int top = t->pile[t->pile_size - 1];
        double take_cost = best_placement(w, rack, top, t->counts, t->marks, &slot);
        if (take_cost < now) {
            t->pile[t->pile_size - 1] = rack[slot];
            rack[slot] = top;
            return 1;
        }
    }
    int card = draw(t);
    if (!card) return 0;
    double cost = best_placement(w, rack, card, t->counts, t->marks, &slot);
    if (cost < now) {
        t->pile[t->pile_size++] = rack[slot];
        rack[slot] = card;
    } else {
        t->pile[t->pile_size++] = card;
    }
    return 1;
}

/* 2 when seat 0 (the deciding seat) goes out first, 0 when seat 1 does, 1 at the cap; draws_first 2: the
   opponent plays first, whatever seat 0's rack (Bonus Rack-O's wait); style: how seat 1 plays (NULL: as seat 0) */
static int race_out(const World *w, Race *r, int draws_first, int cap, const Style *style) {
    if (draws_first == 1) {
        if (!race_turn(w, r, 0, 0, NULL)) return 1;
    }
    if (draws_first != 2 && qualifies(w, r->rack[0])) return 2;
    for (int turn = 0; turn < cap; turn++) {
        if (!race_turn(w, r, 1, 1, style)) return 1;
        if (qualifies(w, r->rack[1])) return 0;
        if (!race_turn(w, r, 0, 1, NULL)) return 1;
        if (qualifies(w, r->rack[0])) return 2;
    }
    return 1;
}

/* seat 0's chance to win a race cut at its horizon (race_out's 1, seat 1 to move): by the chance to win, seat 1's
   taking of the top discard as its style would */
static double race_leaf(const World *w, Race *r, const Style *style, const Chance *chance) {
    Table *t = &r->table;
    count_cards(w, t, r->rack[1], RACK);
    double own = rack_cost(w, r->rack[0], t->counts, t->marks);
    count_cards(w, t, r->rack[0], RACK);
    double now = rack_cost(w, r->rack[1], t->counts, t->marks), after = now, p = 0.0;
    if (t->pile_size) {
        int out;
        p = style_take(w, style, r->rack[1], t->pile[t->pile_size - 1], t->counts, t->marks, now, &after, &out);
    }
    double stays = win_chance(chance, now, now, own);
    double takes = p > 0 ? win_chance(chance, now, after, own) : stays;
    return 1.0 - (p * takes + (1 - p) * stays);
}

/* how many cards rise from slot 5 before the first break (the score of a rack that did not go out, / 5) */
static int ordered_prefix(const int *rack) {
    int count = 1;
    for (int i = 1; i < RACK && rack[i] > rack[i - 1]; i++) count++;
    return count;
}

/* Bonus Rack-O's class of a rack's longest run: 0 below three, 1-4 for 3, 4, 5, 6 or more */
static int run_class(const int *rack) {
    int run = longest_run(rack);
    return run < 3 ? 0 : (run > 6 ? 4 : run - 2);
}

#define VALUE_CELLS (2 * 5 * (RACK + 1) + 1)

/* a race's worth by the table of values (race's values): who went out, with which run, and the other's prefix */
static double race_value(const Race *r, int outcome, const double *values) {
    if (outcome == 1) return values[VALUE_CELLS - 1];
    int out = outcome == 2 ? 0 : 1;
    return values[(out * 5 + run_class(r->rack[out])) * (RACK + 1) + ordered_prefix(r->rack[1 - out])];
}

/* the weights of race and wants: per opponent slot, deck_size + 1 non-negative weights, into a fresh array */
static int read_weights(PyObject *weights_obj, int deck_size, double **weights) {
    PyObject *fast = PySequence_Fast(weights_obj, "weights");
    if (!fast) return 0;
    int ok = 0;
    Py_ssize_t size = RACK * (Py_ssize_t)(deck_size + 1);
    if (PySequence_Fast_GET_SIZE(fast) != size) {
        PyErr_SetString(PyExc_ValueError, "weights: ten rows of deck_size + 1");
        goto done;
    }
    *weights = malloc(sizeof(double) * (size_t)size);
    if (!*weights) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        double weight = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (weight == -1.0 && PyErr_Occurred()) goto done;
        if (!(weight >= 0)) {
            PyErr_SetString(PyExc_ValueError, "weights must not be negative");
            goto done;
        }
        (*weights)[i] = weight;
    }
    ok = 1;
done:
    Py_DECREF(fast);
    return ok;
}

/* race(deck_size, needs_run, hidden, weights, opponent, known_order, pile, candidates, rollouts, seed, cap)
   hidden: the cards whose place this seat does not know (the stock's and the opponent's hidden slots), known_order
   excepted; weights: per opponent slot, deck_size + 1 weights of each card being there (only the hidden slots' rows
   are read); opponent: its rack with 0 where hidden; known_order: the stock's next cards, top first; pile: the
   discard pile under the top card, bottom first; candidates: (rack, top, draws_first).
   Returns, per candidate, (wins, ties, better, worse): its play-outs won and capped, and those it won where the
   first candidate lost (better) or lost where the first candidate won (worse).
   values (optional, 2 * 5 * 11 + 1 floats): a play-out's worth by its end: [w * 55 + b * 11 + k] when seat w (0 the
   deciding seat, 1 the opponent) went out with a rack of run class b (0 below three, 1-4 for 3, 4, 5, 6+ cards in
   a row) and the other rack's cards rose from slot 5 for k cards; the last, at the cap.  With values, each
   candidate's tuple adds (sum, sum of the differences from the first candidate, sum of their squares). */
/* One guess of the opponent's rack: its known cards stay, its hidden slots (0), in a random order, are each dealt
   a card of hidden by that slot's row of weights (deck_size + 1 per slot). The cards not dealt are left at the
   start of sample; returns how many. pool_weights holds hidden_count doubles of scratch. */
static int sample_opponent(const int *hidden, int hidden_count, const int *opponent, const double *weights,
                           int deck_size, double *pool_weights, int *sample, int *opp, uint64_t *state) {
    memcpy(sample, hidden, sizeof(int) * (size_t)hidden_count);
    int left = hidden_count;
    memcpy(opp, opponent, sizeof(int) * RACK);
    int order[RACK], slots = 0;
    for (int i = 0; i < RACK; i++)
        if (!opp[i]) order[slots++] = i;
    shuffle(order, slots, state);
    for (int k = 0; k < slots; k++) {
        const double *row = weights + (size_t)order[k] * (size_t)(deck_size + 1);
        double total = 0;
        for (int i = 0; i < left; i++) total += pool_weights[i] = row[sample[i]];
        int pick = 0;
        if (total > 0) {
            double x = (double)(next_random(state) >> 11) * (1.0 / 9007199254740992.0) * total;
            while (pick < left - 1 && (x -= pool_weights[pick]) >= 0) pick++;
        } else {
            pick = (int)(next_random(state) % (uint64_t)left);
        }
        opp[order[k]] = sample[pick];
        sample[pick] = sample[--left];
    }
    return left;
}

static PyObject *race(PyObject *self, PyObject *args) {
    (void)self;
    int deck_size, needs_run, rollouts, cap;
    unsigned long long seed;
    PyObject *hidden_obj, *weights_obj, *opponent_obj, *known_obj, *pile_obj, *candidates_obj, *values_obj = Py_None,
             *styles_obj = Py_None, *chance_obj = Py_None;
    int horizon = 0, style_count = 0;
    if (!PyArg_ParseTuple(args, "ipOOOOOOiKi|OOOi", &deck_size, &needs_run, &hidden_obj, &weights_obj, &opponent_obj,
                          &known_obj, &pile_obj, &candidates_obj, &rollouts, &seed, &cap, &values_obj, &styles_obj,
                          &chance_obj, &horizon))
        return NULL;
    Style styles[MAX_STYLES];
    Chance chance;
    if (styles_obj != Py_None && !read_styles(styles_obj, styles, &style_count)) return NULL;
    int chanced = chance_obj != Py_None;
    if (chanced && (!read_chance(chance_obj, &chance) || style_count == 0 || values_obj != Py_None || horizon < 1)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "races scored by the chance to win need styles, a horizon and no values");
        return NULL;
    }
    double values[VALUE_CELLS];
    int valued = values_obj != Py_None;
    if (valued) {
        PyObject *fast_values = PySequence_Fast(values_obj, "values");
        if (!fast_values) return NULL;
        if (PySequence_Fast_GET_SIZE(fast_values) != VALUE_CELLS) {
            Py_DECREF(fast_values);
            PyErr_SetString(PyExc_ValueError, "values: 2 * 5 * 11 + 1 floats");
            return NULL;
        }
        for (int i = 0; i < VALUE_CELLS; i++) {
            values[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast_values, i));
            if (values[i] == -1.0 && PyErr_Occurred()) {
                Py_DECREF(fast_values);
                return NULL;
            }
        }
        Py_DECREF(fast_values);
    }
    if (deck_size < RACK + 2 || deck_size > MAX_DECK || rollouts < 1 || cap < 1) {
        PyErr_SetString(PyExc_ValueError, "deck size, rollouts or cap out of range");
        return NULL;
    }
    World w = plain_world(deck_size, needs_run);
    int *hidden = NULL, *opponent = NULL, *known = NULL, *base_pile = NULL, *racks = NULL, *tops = NULL,
        *firsts = NULL, *sample = NULL, *stock = NULL, *work_stock = NULL, *pile = NULL, *counts = NULL,
        *outcome = NULL;
    long *tally = NULL;
    double *weights = NULL, *pool_weights = NULL, *worth = NULL, *sums = NULL;
    unsigned char *marks = NULL;
    PyObject *result = NULL, *candidates = NULL;
    Py_ssize_t hidden_count, opponent_count, known_count, pile_count, count = 0;
    size_t deck_cards = (size_t)deck_size + 3;
    if (!open_gap_tables(&w)) goto done;
    if (!read_ints(hidden_obj, 1, deck_size, &hidden, &hidden_count, "hidden")) goto done;
    if (!read_ints(opponent_obj, 0, deck_size, &opponent, &opponent_count, "opponent")) goto done;
    if (!read_ints(known_obj, 1, deck_size, &known, &known_count, "known_order")) goto done;
    if (!read_ints(pile_obj, 1, deck_size, &base_pile, &pile_count, "pile")) goto done;
    if (opponent_count != RACK || hidden_count + known_count + pile_count > deck_size) {
        PyErr_SetString(PyExc_ValueError, "an opponent rack holds ten cards, and the cards must fit the deck");
        goto done;
    }
    int hidden_slots = 0;
    for (int i = 0; i < RACK; i++) hidden_slots += opponent[i] == 0;
    if (hidden_slots > hidden_count) {
        PyErr_SetString(PyExc_ValueError, "fewer hidden cards than hidden slots");
        goto done;
    }
    if (!read_weights(weights_obj, deck_size, &weights)) goto done;
    pool_weights = malloc(sizeof(double) * (size_t)(hidden_count + 1));
    if (!pool_weights) {
        PyErr_NoMemory();
        goto done;
    }
    candidates = PySequence_Fast(candidates_obj, "candidates");
    if (!candidates) goto done;
    count = PySequence_Fast_GET_SIZE(candidates);
    racks = malloc(sizeof(int) * RACK * (size_t)(count + 1));
    tops = malloc(sizeof(int) * (size_t)(count + 1));
    firsts = malloc(sizeof(int) * (size_t)(count + 1));
    sample = malloc(sizeof(int) * (size_t)(hidden_count + 1));
    stock = malloc(sizeof(int) * deck_cards);
    work_stock = malloc(sizeof(int) * deck_cards * 2);
    pile = malloc(sizeof(int) * deck_cards * 2);
    counts = malloc(sizeof(int) * deck_cards);
    marks = malloc(deck_cards);
    outcome = malloc(sizeof(int) * (size_t)(count + 1));
    tally = calloc(4 * (size_t)(count + 1), sizeof(long));
    worth = malloc(sizeof(double) * (size_t)(count + 1));
    sums = calloc(3 * (size_t)(count + 1), sizeof(double));
    if (!racks || !tops || !firsts || !sample || !stock || !work_stock || !pile || !counts || !marks || !outcome ||
        !tally || !worth || !sums) {
        PyErr_NoMemory();
        goto done;
    }
    if (!read_candidates(candidates, count, deck_size, racks, tops, firsts)) goto done;
    uint64_t state = (uint64_t)seed;
    Race r;
    r.table = (Table){work_stock, 0, pile, 0, counts, marks, NULL};
    int opp[RACK];
    Py_BEGIN_ALLOW_THREADS
    for (int n = 0; n < rollouts; n++) {
        /* the opponent's hidden slots, in a random order, each drawn by its weights from the cards left */
        int left = sample_opponent(hidden, (int)hidden_count, opponent, weights, deck_size, pool_weights, sample, opp,
                                   &state);
        const Style *style = style_count ? pick_style(styles, style_count, &state) : NULL;
        shuffle(sample, left, &state);
        int size = 0;
        for (int i = 0; i < left; i++) stock[size++] = sample[i];
        for (Py_ssize_t i = known_count - 1; i >= 0; i--) stock[size++] = known[i];
        for (Py_ssize_t c = 0; c < count; c++) {
            memcpy(work_stock, stock, sizeof(int) * (size_t)size);
            r.table.stock_size = size;
            memcpy(pile, base_pile, sizeof(int) * (size_t)pile_count);
            r.table.pile_size = (int)pile_count;
            if (tops[c]) pile[r.table.pile_size++] = tops[c];
            memcpy(r.rack[0], racks + RACK * c, sizeof(int) * RACK);
            memcpy(r.rack[1], opp, sizeof opp);
            outcome[c] = race_out(&w, &r, firsts[c], chanced ? horizon : cap, style);
            if (valued) worth[c] = race_value(&r, outcome[c], values);
            if (chanced) worth[c] = outcome[c] == 1 ? race_leaf(&w, &r, style, &chance) : outcome[c] / 2.0;
        }
        if (valued || chanced)
            for (Py_ssize_t c = 0; c < count; c++) {
                double difference = worth[c] - worth[0];
                sums[3 * c] += worth[c];
                sums[3 * c + 1] += difference;
                sums[3 * c + 2] += difference * difference;
            }
        for (Py_ssize_t c = 0; c < count; c++) {
            tally[4 * c] += outcome[c] == 2;
            tally[4 * c + 1] += outcome[c] == 1;
            tally[4 * c + 2] += outcome[c] > outcome[0];
            tally[4 * c + 3] += outcome[c] < outcome[0];
        }
    }
    Py_END_ALLOW_THREADS
    result = PyList_New(count);
    if (!result) goto done;
    for (Py_ssize_t c = 0; c < count; c++) {
        PyObject *item =
            valued || chanced ? Py_BuildValue("(llllddd)", tally[4 * c], tally[4 * c + 1], tally[4 * c + 2], tally[4 * c + 3],
                                   sums[3 * c], sums[3 * c + 1], sums[3 * c + 2])
                   : Py_BuildValue("(llll)", tally[4 * c], tally[4 * c + 1], tally[4 * c + 2], tally[4 * c + 3]);
        if (!item) {
            Py_DECREF(result);
            result = NULL;
            goto done;
        }
        PyList_SET_ITEM(result, c, item);
    }
done:
    close_gap_tables(&w);
    free(worth);
    free(sums);
    Py_XDECREF(candidates);
    free(hidden);
    free(opponent);
    free(known);
    free(base_pile);
    free(racks);
    free(tops);
    free(firsts);
    free(sample);
    free(stock);
    free(work_stock);
    free(pile);
    free(counts);
    free(marks);
    free(outcome);
    free(tally);
    free(weights);
    free(pool_weights);
    return result;
}


/* wants(deck_size, needs_run, hidden, weights, opponent, offered, unseen, samples, seed)
   For sampled opponent racks (hidden slots dealt as in race), per card of the deck: in how many samples a
   hard-like opponent takes it if offered (its placement beats both its rack now and the average blind draw), how
   many draws that saves it in total, and in how many it goes out with it.  offered: the cards to ask about. */
static PyObject *wants(PyObject *self, PyObject *args) {
    (void)self;
    int deck_size, needs_run, samples;
    unsigned long long seed;
    PyObject *hidden_obj, *weights_obj, *opponent_obj, *offered_obj, *unseen_obj;
    if (!PyArg_ParseTuple(args, "ipOOOOOiK", &deck_size, &needs_run, &hidden_obj, &weights_obj, &opponent_obj,
                          &offered_obj, &unseen_obj, &samples, &seed))
        return NULL;
    if (deck_size < RACK + 2 || deck_size > MAX_DECK || samples < 1) {
        PyErr_SetString(PyExc_ValueError, "deck size or samples out of range");
        return NULL;
    }
    World w = plain_world(deck_size, needs_run);
    int *hidden = NULL, *opponent = NULL, *offered = NULL, *unseen = NULL, *sample = NULL, *counts = NULL;
    double *weights = NULL, *pool_weights = NULL, *saved = NULL;
    long *takes = NULL, *outs = NULL;
    unsigned char *marks = NULL;
    PyObject *result = NULL;
    Py_ssize_t hidden_count, opponent_count, offered_count, unseen_count;
    size_t deck_cards = (size_t)deck_size + 3;
    if (!open_gap_tables(&w)) goto done;
    if (!read_ints(unseen_obj, 1, deck_size, &unseen, &unseen_count, "unseen")) goto done;
    if (!read_ints(hidden_obj, 1, deck_size, &hidden, &hidden_count, "hidden")) goto done;
    if (!read_ints(opponent_obj, 0, deck_size, &opponent, &opponent_count, "opponent")) goto done;
    if (!read_ints(offered_obj, 1, deck_size, &offered, &offered_count, "offered")) goto done;
    int hidden_slots = 0;
    for (int i = 0; i < RACK && i < opponent_count; i++) hidden_slots += opponent[i] == 0;
    if (opponent_count != RACK || hidden_slots > hidden_count || hidden_count + unseen_count > deck_size) {
        PyErr_SetString(PyExc_ValueError, "an opponent rack holds ten cards, with no more hidden than may be");
        goto done;
    }
    if (!read_weights(weights_obj, deck_size, &weights)) goto done;
    pool_weights = malloc(sizeof(double) * (size_t)(hidden_count + 1));
    sample = malloc(sizeof(int) * (size_t)(hidden_count + unseen_count + 1));
    counts = malloc(sizeof(int) * deck_cards);
    marks = malloc(deck_cards);
    saved = calloc(deck_cards, sizeof(double));
    takes = calloc(deck_cards, sizeof(long));
    outs = calloc(deck_cards, sizeof(long));
    if (!pool_weights || !sample || !counts || !marks || !saved || !takes || !outs) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t state = (uint64_t)seed;
    int top = deck_size + 1;
    Py_BEGIN_ALLOW_THREADS
    for (int n = 0; n < samples; n++) {
        int opp[RACK];
        int left = sample_opponent(hidden, (int)hidden_count, opponent, weights, deck_size, pool_weights, sample, opp,
                                   &state);
        /* what the opponent has not seen: the stock (the cards left over) and this seat's unseen cards */
        for (Py_ssize_t i = 0; i < unseen_count; i++) sample[left++] = unseen[i];
        memset(counts, 0, sizeof(int) * (size_t)(top + 1));
        for (int i = 0; i < left; i++) counts[sample[i]]++;
        for (int v = 1; v <= top; v++) counts[v] += counts[v - 1];
        double now = rack_cost(&w, opp, counts, marks);
        int slot;
        double draw = 0;
        for (int i = 0; i < left; i++) {
            double cost = best_placement(&w, opp, sample[i], counts, marks, &slot);
            draw += cost < now ? cost : now;
        }
        draw = left ? draw / left : now;
        for (Py_ssize_t i = 0; i < offered_count; i++) {
            int card = offered[i];
            int in_rack = 0;
            for (int j = 0; j < RACK; j++) in_rack |= opp[j] == card;
            if (in_rack) continue;
            double cost = best_placement(&w, opp, card, counts, marks, &slot);
            if (cost < now && cost < draw) {
                takes[card]++;
                saved[card] += draw - cost;
                outs[card] += cost == 0;
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = PyList_New(offered_count);
    if (!result) goto done;
    for (Py_ssize_t i = 0; i < offered_count; i++) {
        int card = offered[i];
        PyList_SET_ITEM(result, i, Py_BuildValue("(ldl)", takes[card], saved[card], outs[card]));
    }
done:
    close_gap_tables(&w);
    free(hidden);
    free(opponent);
    free(offered);
    free(unseen);
    free(sample);
    free(counts);
    free(marks);
    free(weights);
    free(pool_weights);
    free(saved);
    free(takes);
    free(outs);
    return result;
}

/* rate(deck_size, needs_run, hidden, weights, opponent, styles, unseen, may_come, positions, samples, seed, chance)
   For sampled opponent racks (hidden slots dealt by weights, as in race) and a style drawn for each by the styles'
   weights: this seat's chance to win after each position, the opponent to move with the position's card on top of
   the discard pile.  positions: (rack after the move, card handed on (0: none), card drawn (0: none)); a position
   whose rack goes out wins; a sample whose opponent rack holds the card drawn does not count for that position.
   unseen: this seat's cards the opponent has not seen (its pool: those and the cards left over); may_come: this
   seat's pool. Returns per position (sum of the chances, samples counted). */
static PyObject *rate(PyObject *self, PyObject *args) {
    (void)self;
    int deck_size, needs_run, samples, style_count = 0;
    unsigned long long seed;
    PyObject *hidden_obj, *weights_obj, *opponent_obj, *styles_obj, *unseen_obj, *may_obj, *positions_obj,
        *chance_obj;
    if (!PyArg_ParseTuple(args, "ipOOOOOOOiKO", &deck_size, &needs_run, &hidden_obj, &weights_obj, &opponent_obj,
                          &styles_obj, &unseen_obj, &may_obj, &positions_obj, &samples, &seed, &chance_obj))
        return NULL;
    Style styles[MAX_STYLES];
    Chance chance;
    if (!read_styles(styles_obj, styles, &style_count) || !read_chance(chance_obj, &chance)) return NULL;
    if (deck_size < RACK + 2 || deck_size > MAX_DECK || samples < 1) {
        PyErr_SetString(PyExc_ValueError, "deck size or samples out of range");
        return NULL;
    }
    World w = plain_world(deck_size, needs_run);
    int *hidden = NULL, *opponent = NULL, *unseen = NULL, *may = NULL, *sample = NULL, *counts = NULL,
        *my_counts = NULL, *racks = NULL, *handed = NULL, *drawn = NULL, *valid = NULL, *in_sample = NULL;
    double *weights = NULL, *pool_weights = NULL, *mine = NULL, *sums = NULL, *take_chance = NULL,
           *take_after = NULL;
    int *take_known = NULL, *my_out = NULL;
    unsigned char *marks = NULL;
    PyObject *result = NULL, *positions = NULL;
    Py_ssize_t hidden_count, opponent_count, unseen_count, may_count, count = 0;
    size_t deck_cards = (size_t)deck_size + 3;
    if (!open_gap_tables(&w)) goto done;
    if (!read_ints(hidden_obj, 1, deck_size, &hidden, &hidden_count, "hidden")) goto done;
    if (!read_ints(opponent_obj, 0, deck_size, &opponent, &opponent_count, "opponent")) goto done;
    if (!read_ints(unseen_obj, 1, deck_size, &unseen, &unseen_count, "unseen")) goto done;
    if (!read_ints(may_obj, 1, deck_size, &may, &may_count, "may_come")) goto done;
    int hidden_slots = 0;
    for (int i = 0; i < RACK && i < opponent_count; i++) hidden_slots += opponent[i] == 0;
    if (opponent_count != RACK || hidden_slots > hidden_count || hidden_count + unseen_count > deck_size ||
        may_count > deck_size) {
        PyErr_SetString(PyExc_ValueError, "an opponent rack holds ten cards, with no more hidden than may be");
        goto done;
    }
    if (!read_weights(weights_obj, deck_size, &weights)) goto done;
    positions = PySequence_Fast(positions_obj, "positions");
    if (!positions) goto done;
    count = PySequence_Fast_GET_SIZE(positions);
    pool_weights = malloc(sizeof(double) * (size_t)(hidden_count + 1));
    sample = malloc(sizeof(int) * (size_t)(hidden_count + unseen_count + 1));
    counts = malloc(sizeof(int) * deck_cards);
    my_counts = calloc(deck_cards, sizeof(int));
    marks = malloc(deck_cards);
    racks = malloc(sizeof(int) * RACK * (size_t)(count + 1));
    handed = malloc(sizeof(int) * (size_t)(count + 1));
    drawn = malloc(sizeof(int) * (size_t)(count + 1));
    valid = calloc((size_t)(count + 1), sizeof(int));
    mine = malloc(sizeof(double) * (size_t)(count + 1));
    my_out = malloc(sizeof(int) * (size_t)(count + 1));
    sums = calloc((size_t)(count + 1), sizeof(double));
    in_sample = malloc(sizeof(int) * deck_cards);
    take_known = malloc(sizeof(int) * deck_cards);
    take_chance = malloc(sizeof(double) * deck_cards);
    take_after = malloc(sizeof(double) * deck_cards);
    if (!pool_weights || !sample || !counts || !my_counts || !marks || !racks || !handed || !drawn || !valid ||
        !mine || !my_out || !sums || !in_sample || !take_known || !take_chance || !take_after) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *rack_obj;
        int *cards;
        Py_ssize_t size;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(positions, i), "Oii", &rack_obj, &handed[i], &drawn[i]))
            goto done;
        if (!read_cards(rack_obj, deck_size, &cards, &size, "rack")) goto done;
        if (size != RACK || handed[i] < 0 || handed[i] > deck_size || drawn[i] < 0 || drawn[i] > deck_size) {
            free(cards);
            PyErr_SetString(PyExc_ValueError, "a position: a rack of ten cards, a card handed on and a card drawn");
            goto done;
        }
        memcpy(racks + RACK * i, cards, sizeof(int) * RACK);
        free(cards);
    }
    int top = deck_size + 1;
    for (Py_ssize_t i = 0; i < may_count; i++) my_counts[may[i]] = 1;
    for (int v = 1; v <= top; v++) my_counts[v] += my_counts[v - 1];
    for (Py_ssize_t i = 0; i < count; i++) { /* this seat's costs do not depend on the sample */
        my_out[i] = qualifies(&w, racks + RACK * i);
        mine[i] = my_out[i] ? 0.0 : rack_cost(&w, racks + RACK * i, my_counts, marks);
    }
    uint64_t state = (uint64_t)seed;
    Py_BEGIN_ALLOW_THREADS
    for (int n = 0; n < samples; n++) {
        int opp[RACK];
        int left = sample_opponent(hidden, (int)hidden_count, opponent, weights, deck_size, pool_weights, sample, opp,
                                   &state);
        const Style *style = pick_style(styles, style_count, &state);
        for (Py_ssize_t i = 0; i < unseen_count; i++) sample[left++] = unseen[i];
        memset(counts, 0, sizeof(int) * (size_t)(top + 1));
        for (int i = 0; i < left; i++) counts[sample[i]]++;
        for (int v = 1; v <= top; v++) counts[v] += counts[v - 1];
        memset(in_sample, 0, sizeof(int) * deck_cards);
        for (int j = 0; j < RACK; j++) in_sample[opp[j]] = 1;
        memset(take_known, 0, sizeof(int) * deck_cards);
        double now = rack_cost(&w, opp, counts, marks);
        for (Py_ssize_t i = 0; i < count; i++) {
            if (drawn[i] && in_sample[drawn[i]]) continue;
            valid[i]++;
            if (my_out[i]) {
                sums[i] += 1.0;
                continue;
            }
            int card = handed[i];
            double p = 0.0, after = now;
            if (card && !in_sample[card]) {
                if (!take_known[card]) {
                    int out;
                    take_chance[card] = style_take(&w, style, opp, card, counts, marks, now, &take_after[card], &out);
                    take_known[card] = 1;
                }
                p = take_chance[card];
                after = take_after[card];
            }
            double stays = win_chance(&chance, now, now, mine[i]);
            double takes = p > 0 ? win_chance(&chance, now, after, mine[i]) : stays;
            sums[i] += 1.0 - (p * takes + (1 - p) * stays);
        }
    }
    Py_END_ALLOW_THREADS
    result = PyList_New(count);
    if (!result) goto done;
    for (Py_ssize_t i = 0; i < count; i++) PyList_SET_ITEM(result, i, Py_BuildValue("(di)", sums[i], valid[i]));
done:
    close_gap_tables(&w);
    Py_XDECREF(positions);
    free(hidden);
    free(opponent);
    free(unseen);
    free(may);
    free(sample);
    free(counts);
    free(my_counts);
    free(marks);
    free(racks);
    free(handed);
    free(drawn);
    free(valid);
    free(mine);
    free(my_out);
    free(sums);
    free(in_sample);
    free(take_known);
    free(take_chance);
    free(take_after);
    free(weights);
    free(pool_weights);
    return result;
}

/* ---- the opponent's hidden slots, weighed by how likely each style of player was to play as it did ---- */
typedef struct {
    int offered; /* the top discard it was offered (0: none) */
    int took;
    int slot;    /* where the card it held went (-1: it discarded the card it drew) */
    int left;    /* the card that left that slot */
    int held;    /* the card it held, when public (a discard it took, or a draw it discarded); else 0 */
    unsigned char *seen; /* deck_size + 2 marks: the cards it saw face up (pile, other racks' known cards) */
} Turn;

static double log_sigmoid(double z) { return z >= 0 ? -log1p(exp(-z)) : z - log1p(exp(z)); }

/* the log of a slot weight, a zero weight as the smallest positive one */
static double log_weight(double weight) { return log(weight > 1e-300 ? weight : 1e-300); }

/* the hidden slot other than s that holds card in the guess, -1 when none does */
static int holder(const int *rack, const int *in_slot, int s, int card) {
    int other = -1;
    for (int j = 0; j < RACK; j++)
        if (j != s && in_slot[j] && rack[j] == card) other = j;
    return other;
}

/* the turns as the Python side sends them, (offered, took, slot, left, held, seen cards) each, into turns (marks for
   the seen cards in seen, deck_size + 3 a turn); 0 with a Python error set when one is bad */
static int read_turns(PyObject *turns_seq, Py_ssize_t count, int deck_size, Turn *turns, unsigned char *seen) {
    size_t deck_cards = (size_t)deck_size + 3;
    for (Py_ssize_t i = 0; i < count; i++) {
        Turn *t = &turns[i];
        PyObject *seen_obj;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(turns_seq, i), "iiiiiO", &t->offered, &t->took, &t->slot,
                              &t->left, &t->held, &seen_obj))
            return 0;
        if (t->offered < 0 || t->offered > deck_size || t->slot < -1 || t->slot >= RACK || t->left < 0 ||
            t->left > deck_size || t->held < 0 || t->held > deck_size || (t->slot >= 0) != (t->left > 0) ||
            (t->took && (t->slot < 0 || !t->offered))) {
            PyErr_SetString(PyExc_ValueError, "a turn out of range");
            return 0;
        }
        t->seen = seen + (size_t)i * deck_cards;
        int *cards;
        Py_ssize_t size;
        if (!read_ints(seen_obj, 1, deck_size, &cards, &size, "seen")) return 0;
        for (Py_ssize_t k = 0; k < size; k++) t->seen[cards[k]] = 1;
        free(cards);
    }
    return 1;
}

/* the log-chance that a player of this style played turn t from the rack before it, holding held (counts: the cards
   it had not seen) */
static double turn_loglik(const World *w, const Style *style, const int *before, int held, const Turn *t,
                          const int *counts, unsigned char *marks) {
    double wants[RACK + 1], take_gain = -HUGE_VAL;
    int valid[RACK + 1];
    if (style->kind == GAP_STYLE) { /* what a card gains: the draws of the gap model it saves */
        double now = rack_cost(w, before, counts, marks);
        int trial[RACK];
        memcpy(trial, before, sizeof trial);
        double low = HUGE_VAL;
        for (int k = 0; k < RACK; k++) {
            trial[k] = held;
            double cost = rack_cost(w, trial, counts, marks);
            trial[k] = before[k];
            wants[k] = -cost;
            valid[k] = !isinf(cost);
            if (cost < low) low = cost;
        }
        wants[RACK] = -now;
        valid[RACK] = !isinf(now);
        if (t->offered) {
            double take = low;
            if (!t->took) {
                int slot;
                take = best_placement(w, before, t->offered, counts, marks, &slot);
            }
            take_gain = now - take;
        }
    } else {
        style_wants(style, before, held, w->deck_size, w->needs_run, wants, valid);
        wants[RACK] = 0.0;
        valid[RACK] = 1;
        if (t->offered) {
            double offered_wants[RACK];
            int offered_valid[RACK];
            const double *source = wants;
            const int *source_valid = valid;
            if (!t->took) {
                style_wants(style, before, t->offered, w->deck_size, w->needs_run, offered_wants, offered_valid);
                source = offered_wants;
                source_valid = offered_valid;
            }
            for (int k = 0; k < RACK; k++)
                if (source_valid[k] && source[k] > take_gain) take_gain = source[k];
        }
    }
    double total = 0.0;
    if (t->offered) {
        double z = (take_gain - style->take_margin) / style->take_spread;
        if (isinf(z) || isnan(z)) z = z > 0 ? 50.0 : -50.0;
        double chance = log_sigmoid(t->took ? z : -z);
        total += style->floor > 0 ? log((1 - style->floor) * exp(chance) + style->floor / 2) : chance;
    }
    int options = t->took ? RACK : RACK + 1, chosen = t->slot >= 0 ? t->slot : RACK;
    double high = -HUGE_VAL;
    for (int k = 0; k < options; k++)
        if (valid[k] && wants[k] > high) high = wants[k];
    double share;
    if (high == -HUGE_VAL) {
        share = 1.0 / options; /* nothing it would choose: any choice as likely */
    } else {
        double z = 0.0;
        for (int k = 0; k < options; k++)
            if (valid[k]) z += exp((wants[k] - high) / style->place_spread);
        share = valid[chosen] ? exp((wants[chosen] - high) / style->place_spread) / z : 0.0;
    }
    share = (1 - style->floor) * share + style->floor / options;
    return total + (share > 1e-22 ? log(share) : -50.0);
}

/* per style, the log-likelihood of the turns (oldest first) given the rack now into totals, and of the oldest
   turn alone into oldest; the racks before each turn follow from the rack now */
static void turns_loglik(const World *w, const Style *styles, int style_count, const int *rack_now, const Turn *turns,
                         int count, int *counts, unsigned char *marks, double *totals, double *oldest) {
    int rack[RACK];
    memcpy(rack, rack_now, sizeof rack);
    int top = w->deck_size + 1;
    for (int k = 0; k < style_count; k++) totals[k] = oldest[k] = 0.0;
    for (int i = count - 1; i >= 0; i--) {
        const Turn *t = &turns[i];
        int before[RACK];
        memcpy(before, rack, sizeof before);
        int held = t->held;
        if (t->slot >= 0) {
            before[t->slot] = t->left;
            if (!held) held = rack[t->slot];
        }
        memset(counts, 0, sizeof(int) * (size_t)(top + 1));
        for (int v = 1; v < top; v++) counts[v] = !t->seen[v];
        for (int k = 0; k < RACK; k++) counts[before[k]] = 0;
        if (held > 0 && held < top) counts[held] = 0;
        for (int v = 1; v <= top; v++) counts[v] += counts[v - 1];
        for (int k = 0; k < style_count; k++) {
            double chance = turn_loglik(w, &styles[k], before, held, t, counts, marks);
            totals[k] += chance;
            if (i == 0) oldest[k] = chance;
        }
        memcpy(rack, before, sizeof rack);
    }
}

/* log of the sum over the styles of weight x likelihood */
static double mixed_loglik(const Style *styles, int style_count, const double *totals) {
    double high = -HUGE_VAL;
    for (int k = 0; k < style_count; k++)
        if (styles[k].weight > 0 && totals[k] > high) high = totals[k];
    if (high == -HUGE_VAL) return -HUGE_VAL;
    double sum = 0.0;
    for (int k = 0; k < style_count; k++)
        if (styles[k].weight > 0) sum += styles[k].weight * exp(totals[k] - high);
    return high + log(sum);
}

/* turns_loglik remembered per rack for one posterior call: a Gibbs sweep weighs again many of the racks the sweeps
   before it weighed, and a rack's likelihood depends on nothing else */
#define REMEMBERED 4096 /* a power of two */
typedef struct {
    int rack[RACK];
    int used;
    double totals[MAX_STYLES], oldest[MAX_STYLES];
} Remembered;

typedef struct {
    const World *w;
    const Style *styles;
    int style_count;
    const Turn *turns;
    int count;
    int *counts;
    unsigned char *marks;
    Remembered *memo;
    int stored;
    Remembered spare; /* the answer when the table is full */
} Weigher;

static const Remembered *remembered(Weigher *g, const int *rack) {
    uint64_t hash = 0xcbf29ce484222325ULL; /* FNV-1a over the slots */
    for (int k = 0; k < RACK; k++) hash = (hash ^ (uint64_t)rack[k]) * 0x100000001b3ULL;
    size_t i = (size_t)(hash ^ (hash >> 32)) & (REMEMBERED - 1);
    while (g->memo[i].used) {
        if (!memcmp(g->memo[i].rack, rack, sizeof g->memo[i].rack)) return &g->memo[i];
        i = (i + 1) & (REMEMBERED - 1);
    }
    /* a table kept under three quarters full, so that a search ends soon */
    Remembered *entry = g->stored < REMEMBERED / 4 * 3 ? &g->memo[i] : &g->spare;
    turns_loglik(g->w, g->styles, g->style_count, rack, g->turns, g->count, g->counts, g->marks, entry->totals,
                 entry->oldest);
    if (entry != &g->spare) {
        memcpy(entry->rack, rack, sizeof entry->rack);
        entry->used = 1;
        g->stored++;
    }
    return entry;
}

/* posterior(deck_size, needs_run, hidden, weights, rack, hidden_slots, turns, sweeps, burn, styles, seed)
   rack: the opponent's rack, known cards and a guess for each of hidden_slots; turns: (offered, took, slot,
   left, held, seen cards), oldest first; styles: (kind, weight, take spread, place spread, take margin, floor,
   shape) each (kind 0 gap, 1 band, 2 sequence).
   Gibbs sweeps over the hidden slots: each slot's card (swapped with another slot's when that slot holds it)
   drawn from prior weight x the likelihood of the turns under the mixture of the styles. Returns (rack after the
   last sweep, per slot per card the mean conditional probability over the sweeps after burn, per style its chance
   given the turns, per style the mean likelihood of the oldest turn), the last two over the racks after each sweep
   after burn. */
static PyObject *posterior(PyObject *self, PyObject *args) {
    (void)self;
    int deck_size, needs_run, sweeps, burn, style_count = 0;
    unsigned long long seed;
    PyObject *hidden_obj, *weights_obj, *rack_obj, *slots_obj, *turns_obj, *styles_obj;
    if (!PyArg_ParseTuple(args, "ipOOOOOiiOK", &deck_size, &needs_run, &hidden_obj, &weights_obj, &rack_obj,
                          &slots_obj, &turns_obj, &sweeps, &burn, &styles_obj, &seed))
        return NULL;
    Style styles[MAX_STYLES];
    if (!read_styles(styles_obj, styles, &style_count)) return NULL;
    if (deck_size < RACK + 2 || deck_size > MAX_DECK || sweeps < 1 || burn < 0 || burn >= sweeps) {
        PyErr_SetString(PyExc_ValueError, "deck size or sweeps out of range");
        return NULL;
    }
    World w = plain_world(deck_size, needs_run);
    int *hidden = NULL, *rack = NULL, *slots = NULL, *counts = NULL;
    double *weights = NULL, *marginal = NULL, *logs = NULL;
    double style_chances[MAX_STYLES] = {0}, oldest_chances[MAX_STYLES] = {0};
    unsigned char *marks = NULL, *seen = NULL;
    Turn *turns = NULL;
    Remembered *memo = NULL;
    PyObject *result = NULL, *turns_seq = NULL;
    Py_ssize_t hidden_count, rack_count, slot_count, turn_count = 0;
    size_t deck_cards = (size_t)deck_size + 3;
    if (!open_gap_tables(&w)) goto done;
    if (!read_ints(hidden_obj, 1, deck_size, &hidden, &hidden_count, "hidden")) goto done;
    if (!read_ints(rack_obj, 1, deck_size, &rack, &rack_count, "rack")) goto done;
    if (!read_ints(slots_obj, 0, RACK - 1, &slots, &slot_count, "hidden_slots")) goto done;
    if (rack_count != RACK || slot_count > hidden_count || hidden_count < 1) {
        PyErr_SetString(PyExc_ValueError, "a rack holds ten cards, and each hidden slot a hidden card");
        goto done;
    }
    if (!read_weights(weights_obj, deck_size, &weights)) goto done;
    turns_seq = PySequence_Fast(turns_obj, "turns");
    if (!turns_seq) goto done;
    turn_count = PySequence_Fast_GET_SIZE(turns_seq);
    turns = calloc((size_t)turn_count + 1, sizeof(Turn));
    seen = calloc(((size_t)turn_count + 1) * deck_cards, 1);
    counts = malloc(sizeof(int) * deck_cards);
    marks = malloc(deck_cards);
    marginal = calloc(RACK * (size_t)(deck_size + 1), sizeof(double));
    logs = malloc(sizeof(double) * (size_t)(hidden_count + 1));
    memo = calloc(REMEMBERED, sizeof(Remembered));
    if (!turns || !seen || !counts || !marks || !marginal || !logs || !memo) {
        PyErr_NoMemory();
        goto done;
    }
    if (!read_turns(turns_seq, turn_count, deck_size, turns, seen)) goto done;
    int in_slot[RACK]; /* per slot: whether it is hidden */
    memset(in_slot, 0, sizeof in_slot);
    for (Py_ssize_t k = 0; k < slot_count; k++) in_slot[slots[k]] = 1;
    uint64_t state = (uint64_t)seed;
    int order[RACK];
    Weigher g = {&w, styles, style_count, turns, (int)turn_count, counts, marks, memo, 0, {{0}, 0, {0}, {0}}};
    Py_BEGIN_ALLOW_THREADS
    for (int sweep = 0; sweep < sweeps; sweep++) {
        memcpy(order, slots, sizeof(int) * (size_t)slot_count);
        shuffle(order, (int)slot_count, &state);
        for (Py_ssize_t k = 0; k < slot_count; k++) {
            int s = order[k];
            const double *row = weights + (size_t)s * (size_t)(deck_size + 1);
            double high = -HUGE_VAL;
            for (Py_ssize_t h = 0; h < hidden_count; h++) {
                int c = hidden[h], was = rack[s], other = holder(rack, in_slot, s, c);
                double prior = log_weight(row[c]) - log_weight(row[was]);
                if (other >= 0) {
                    const double *other_row = weights + (size_t)other * (size_t)(deck_size + 1);
                    prior += log_weight(other_row[was]) - log_weight(other_row[c]);
                    rack[other] = was;
                }
                rack[s] = c;
                logs[h] = prior + mixed_loglik(styles, style_count, remembered(&g, rack)->totals);
                rack[s] = was;
                if (other >= 0) rack[other] = c;
                if (logs[h] > high) high = logs[h];
            }
            double total = 0.0;
            for (Py_ssize_t h = 0; h < hidden_count; h++) total += logs[h] = high == -HUGE_VAL ? 1.0 : exp(logs[h] - high);
            if (sweep >= burn)
                for (Py_ssize_t h = 0; h < hidden_count; h++)
                    marginal[(size_t)s * (size_t)(deck_size + 1) + (size_t)hidden[h]] += logs[h] / total;
            double x = (double)(next_random(&state) >> 11) * (1.0 / 9007199254740992.0) * total;
            Py_ssize_t pick = 0;
            while (pick < hidden_count - 1 && (x -= logs[pick]) >= 0) pick++;
            int c = hidden[pick], other = holder(rack, in_slot, s, c);
            if (other >= 0) rack[other] = rack[s];
            rack[s] = c;
        }
        if (sweep >= burn) {
            const Remembered *entry = remembered(&g, rack);
            double mixed = mixed_loglik(styles, style_count, entry->totals);
            for (int k = 0; k < style_count; k++) {
                if (!isinf(mixed) && styles[k].weight > 0)
                    style_chances[k] += styles[k].weight * exp(entry->totals[k] - mixed);
                else if (isinf(mixed))
                    style_chances[k] += 1.0 / style_count;
                oldest_chances[k] += exp(entry->oldest[k]);
            }
        }
    }
    Py_END_ALLOW_THREADS
    {
        PyObject *rack_out = PyList_New(RACK), *weights_out = PyList_New(RACK * (Py_ssize_t)(deck_size + 1));
        PyObject *styles_out = PyList_New(style_count), *oldest_out = PyList_New(style_count);
        if (!rack_out || !weights_out || !styles_out || !oldest_out) {
            Py_XDECREF(rack_out);
            Py_XDECREF(weights_out);
            Py_XDECREF(styles_out);
            Py_XDECREF(oldest_out);
            goto done;
        }
        for (int k = 0; k < RACK; k++) PyList_SET_ITEM(rack_out, k, PyLong_FromLong(rack[k]));
        for (Py_ssize_t i = 0; i < RACK * (Py_ssize_t)(deck_size + 1); i++)
            PyList_SET_ITEM(weights_out, i, PyFloat_FromDouble(marginal[i] / (sweeps - burn)));
        for (int k = 0; k < style_count; k++) {
            PyList_SET_ITEM(styles_out, k, PyFloat_FromDouble(style_chances[k] / (sweeps - burn)));
            PyList_SET_ITEM(oldest_out, k, PyFloat_FromDouble(oldest_chances[k] / (sweeps - burn)));
        }
        result = Py_BuildValue("(NNNN)", rack_out, weights_out, styles_out, oldest_out);
    }
done:
    close_gap_tables(&w);
    Py_XDECREF(turns_seq);
    free(hidden);
    free(rack);
    free(slots);
    free(counts);
    free(weights);
    free(marginal);
    free(logs);
    free(marks);
    free(seen);
    free(turns);
    free(memo);
    return result;
}

/* loglik(deck_size, needs_run, rack, turns, styles): per style, the log-likelihood of the turns (oldest first) given
   the opponent's whole rack after the last of them (for fitting the styles on logs where the racks are known) */
static PyObject *loglik(PyObject *self, PyObject *args) {
    (void)self;
    int deck_size, needs_run, style_count = 0;
    PyObject *rack_obj, *turns_obj, *styles_obj;
    if (!PyArg_ParseTuple(args, "ipOOO", &deck_size, &needs_run, &rack_obj, &turns_obj, &styles_obj)) return NULL;
    Style styles[MAX_STYLES];
    if (!read_styles(styles_obj, styles, &style_count)) return NULL;
    if (deck_size < RACK + 2 || deck_size > MAX_DECK) {
        PyErr_SetString(PyExc_ValueError, "deck size out of range");
        return NULL;
    }
    World w = plain_world(deck_size, needs_run);
    int *rack = NULL, *counts = NULL;
    unsigned char *marks = NULL, *seen = NULL;
    Turn *turns = NULL;
    PyObject *result = NULL, *turns_seq = NULL;
    Py_ssize_t rack_count, turn_count;
    size_t deck_cards = (size_t)deck_size + 3;
    double totals[MAX_STYLES], oldest[MAX_STYLES];
    if (!open_gap_tables(&w)) goto done;
    if (!read_ints(rack_obj, 1, deck_size, &rack, &rack_count, "rack")) goto done;
    if (rack_count != RACK) {
        PyErr_SetString(PyExc_ValueError, "a rack holds ten cards");
        goto done;
    }
    turns_seq = PySequence_Fast(turns_obj, "turns");
    if (!turns_seq) goto done;
    turn_count = PySequence_Fast_GET_SIZE(turns_seq);
    turns = calloc((size_t)turn_count + 1, sizeof(Turn));
    seen = calloc(((size_t)turn_count + 1) * deck_cards, 1);
    counts = malloc(sizeof(int) * deck_cards);
    marks = malloc(deck_cards);
    if (!turns || !seen || !counts || !marks) {
        PyErr_NoMemory();
        goto done;
    }
    if (!read_turns(turns_seq, turn_count, deck_size, turns, seen)) goto done;
    turns_loglik(&w, styles, style_count, rack, turns, (int)turn_count, counts, marks, totals, oldest);
    result = PyList_New(style_count);
    if (!result) goto done;
    for (int k = 0; k < style_count; k++) PyList_SET_ITEM(result, k, PyFloat_FromDouble(totals[k]));
done:
    close_gap_tables(&w);
    Py_XDECREF(turns_seq);
    free(rack);
    free(counts);
    free(marks);
    free(seen);
    free(turns);
    return result;
}

static PyMethodDef methods[] = {
    {"estimate", estimate, METH_VARARGS, "Mean turns to Rack-O of each candidate (see racko.bots.rollout)."},
    {"wants", wants, METH_VARARGS, "What a sampled opponent would take if offered (see racko.bots.master)."},
    {"race", race, METH_VARARGS, "Play-outs of a 2-player race per candidate (see racko.bots.race)."},
    {"posterior", posterior, METH_VARARGS, "Gibbs sweeps over the opponent's hidden slots (see racko.bots.guess)."},
    {"rate", rate, METH_VARARGS, "This seat's chance to win after each position, over sampled opponents."},
    {"loglik", loglik, METH_VARARGS, "Per style, the log-likelihood of an opponent's turns (see racko.bots.opponents)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rollout", "racko's rollout kernel in C.", -1, methods};

PyMODINIT_FUNC PyInit__rollout(void) { return PyModule_Create(&module); }
