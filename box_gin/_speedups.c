/* box_gin._speedups: the compiled kernels of box_gin.kernels.
 *
 * Each function here has a pure-Python twin of the same name in box_gin/kernels.py and
 * gives exactly its answers; box_gin.kernels binds these in place of its own when this
 * extension is built (BOX_GIN_PURE=1 keeps the pure ones):
 *
 *   init(card_type, by_rank_major)  the Card class and the 52 cards in card order
 *   mask_of(seq)             the 52-bit mask of a tuple/list/set/frozenset of Cards,
 *                            or -1 (not exactly Cards, or a card repeated)
 *   best(mask)               (least deadwood, mask of the cards in sets), with
 *                            best_melds' tie-break
 *   best_cards(seq)          (mask, least deadwood, mask of the cards in sets) of
 *                            mask_of(seq), or (-1, 0, 0) when mask_of gives -1
 *   min_deadwood(mask)       the least deadwood
 *   discard_table(mask)      (card order, card, index, deadwood after discarding it),
 *                            in card order
 *   after_each(mask)         {card: deadwood after discarding it}, in card order
 *   least_after(mask, skip)  the least deadwood after any discard but card index skip
 *   knockable(mask, limit, skip)  the mask of the cards (not skip) whose discard leaves
 *                            deadwood <= limit
 *   finish_each(...)         the review's playouts (twin of box_gin/review/playout.py;
 *                            PLAYOUT, its version)
 *
 * Masks: bit suit * 13 + rank - 1, as Card.bit; any int is taken, and only its bits 0 to
 * 51 are read (as the pure kernels do).  Plain C, the CPython C API only.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>

#define SUIT_BITS 0x1FFFu
#define NCARDS 52
#define BIG (1 << 20)

static int16_t RUN_DEADWOOD[8192];
static uint16_t RUN_MELDED[8192];
static int32_t LEAST_AFTER[8192];
/* SET_OPTIONS[sm]: the choices of set at a rank held in the suits of 4-bit mask sm
 * (three or more): none, each three-card set (in itertools.combinations order), the
 * four-card set; as 4-bit suit masks, in the order of kernels._SET_REMOVALS. */
static uint8_t SET_OPTIONS[16][6];
static uint8_t SET_COUNT[16];

static PyTypeObject *card_type = NULL;
static Py_ssize_t bit_offset = -1;
static PyObject *by_rank_major = NULL; /* tuple of the 52 cards in card order */
static PyObject *by_index[NCARDS];     /* borrowed from by_rank_major */

static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }

static void build_tables(void) {
    for (int p = 0; p < 8192; p++) {
        int keep = 0, r = 0, total = 0, melded_value = 0;
        while (r < 13) {
            if (p >> r & 1) {
                int start = r;
                while (r < 13 && (p >> r & 1)) r++;
                if (r - start >= 3) keep |= ((1 << (r - start)) - 1) << start;
            } else {
                r++;
            }
        }
        for (int i = 0; i < 13; i++) {
            int v = i + 1 < 10 ? i + 1 : 10;
            if (p >> i & 1) total += v;
            if (keep >> i & 1) melded_value += v;
        }
        RUN_MELDED[p] = (uint16_t)keep;
        RUN_DEADWOOD[p] = (int16_t)(total - melded_value);
    }
    for (int p = 0; p < 8192; p++) {
        int least = BIG;
        for (int r = 0; r < 13; r++)
            if ((p >> r & 1) && RUN_DEADWOOD[p ^ (1 << r)] < least)
                least = RUN_DEADWOOD[p ^ (1 << r)];
        LEAST_AFTER[p] = least;
    }
    for (int sm = 0; sm < 16; sm++) {
        int n = 0, held[4], k = 0;
        SET_OPTIONS[sm][n++] = 0;
        for (int s = 0; s < 4; s++)
            if (sm >> s & 1) held[k++] = s;
        if (k >= 3) {
            for (int a = 0; a < k; a++)
                for (int b = a + 1; b < k; b++)
                    for (int c = b + 1; c < k; c++)
                        SET_OPTIONS[sm][n++] = (uint8_t)(1 << held[a] | 1 << held[b] | 1 << held[c]);
            if (k == 4) SET_OPTIONS[sm][n++] = 15;
        }
        SET_COUNT[sm] = (uint8_t)n;
    }
}

static inline int dead_of(uint64_t m) {
    return RUN_DEADWOOD[m & SUIT_BITS] + RUN_DEADWOOD[(m >> 13) & SUIT_BITS] +
           RUN_DEADWOOD[(m >> 26) & SUIT_BITS] + RUN_DEADWOOD[(m >> 39) & SUIT_BITS];
}

static inline uint64_t three_of(uint64_t mask) {
    uint64_t s0 = mask & SUIT_BITS, s1 = (mask >> 13) & SUIT_BITS;
    uint64_t s2 = (mask >> 26) & SUIT_BITS, s3 = (mask >> 39) & SUIT_BITS;
    return (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1));
}

static inline uint64_t melded_after(uint64_t mask, uint64_t removed) {
    uint64_t m = mask ^ removed;
    return removed | (uint64_t)RUN_MELDED[m & SUIT_BITS] |
           (uint64_t)RUN_MELDED[(m >> 13) & SUIT_BITS] << 13 |
           (uint64_t)RUN_MELDED[(m >> 26) & SUIT_BITS] << 26 |
           (uint64_t)RUN_MELDED[(m >> 39) & SUIT_BITS] << 39;
}

/* The choices of sets, enumerated in the order of kernels._removals: an odometer over
 * the ranks of `three`, the lowest rank the most significant digit. */
typedef struct {
    int n;                 /* ranks with a choice */
    int digit[13];
    int count[13];
    uint64_t option[13][6]; /* the 52-bit removal of each option */
} Removals;

static void removals_init(Removals *rv, uint64_t mask, uint64_t three) {
    rv->n = 0;
    while (three) {
        int r = ctz64(three);
        int sm = (int)((mask >> r & 1) | (mask >> (13 + r) & 1) << 1 |
                       (mask >> (26 + r) & 1) << 2 | (mask >> (39 + r) & 1) << 3);
        int j = rv->n++;
        rv->digit[j] = 0;
        rv->count[j] = SET_COUNT[sm];
        for (int o = 0; o < SET_COUNT[sm]; o++) {
            uint64_t rem = 0;
            for (int s = 0; s < 4; s++)
                if (SET_OPTIONS[sm][o] >> s & 1) rem |= (uint64_t)1 << (13 * s + r);
            rv->option[j][o] = rem;
        }
        three &= three - 1;
    }
}

static inline uint64_t removals_current(const Removals *rv) {
    uint64_t rem = 0;
    for (int j = 0; j < rv->n; j++) rem |= rv->option[j][rv->digit[j]];
    return rem;
}

/* Move to the next choice; 0 when every choice has been seen. */
static inline int removals_next(Removals *rv) {
    for (int j = rv->n - 1; j >= 0; j--) {
        if (++rv->digit[j] < rv->count[j]) return 1;
        rv->digit[j] = 0;
    }
    return 0;
}

/* A card's bits (suit-major) in rank-major order (bit rank * 4 + suit), as an integer:
 * for deadwood sets of one size, the lower integer is the one whose highest card is
 * lowest, compared card by card from the top. */
static uint64_t rank_major(uint64_t mask) {
    uint64_t out = 0;
    while (mask) {
        int i = ctz64(mask);
        out |= (uint64_t)1 << ((i % 13) * 4 + i / 13);
        mask &= mask - 1;
    }
    return out;
}

static int min_deadwood_c(uint64_t mask) {
    uint64_t three = three_of(mask);
    int best = dead_of(mask);
    if (!three) return best;
    Removals rv;
    removals_init(&rv, mask, three);
    do {
        int v = dead_of(mask ^ removals_current(&rv));
        if (v < best) best = v;
    } while (removals_next(&rv));
    return best;
}

static int best_c(uint64_t mask, uint64_t *in_sets) {
    uint64_t three = three_of(mask);
    if (!three) {
        *in_sets = 0;
        return dead_of(mask);
    }
    Removals rv;
    removals_init(&rv, mask, three);
    int best_value = 1 << 30, keyed = 0;
    uint64_t best_rem = 0, k1 = 0, k2 = 0, k3 = 0;
    do {
        uint64_t rem = removals_current(&rv);
        int v = dead_of(mask ^ rem);
        if (v < best_value) {
            best_value = v;
            best_rem = rem;
            keyed = 0;
        } else if (v == best_value) {
            /* kernels._tie_key: (deadwood cards, deadwood high to low, cards in sets) */
            if (!keyed) {
                uint64_t dead = mask & ~melded_after(mask, best_rem);
                k1 = (uint64_t)popcount64(dead);
                k2 = rank_major(dead);
                k3 = (uint64_t)popcount64(best_rem);
                keyed = 1;
            }
            uint64_t dead = mask & ~melded_after(mask, rem);
            uint64_t c1 = (uint64_t)popcount64(dead);
            if (c1 > k1) continue;
            uint64_t c2 = rank_major(dead), c3 = (uint64_t)popcount64(rem);
            if (c1 < k1 || c2 < k2 || (c2 == k2 && c3 < k3)) {
                best_rem = rem;
                k1 = c1, k2 = c2, k3 = c3;
            }
        }
    } while (removals_next(&rv));
    *in_sets = best_rem;
    return best_value;
}

/* after[i]: the least deadwood after discarding card i of the mask (BIG if not held). */
static void after_c(uint64_t mask, int after[NCARDS]) {
    for (int i = 0; i < NCARDS; i++) after[i] = BIG;
    uint64_t three = three_of(mask);
    Removals rv;
    if (three) {
        removals_init(&rv, mask, three);
    } else {
        rv.n = 0;
    }
    do {
        uint64_t m = mask ^ removals_current(&rv);
        int q[4], base[4];
        for (int s = 0; s < 4; s++) {
            q[s] = (int)((m >> (13 * s)) & SUIT_BITS);
            base[s] = RUN_DEADWOOD[q[s]];
        }
        int total = base[0] + base[1] + base[2] + base[3];
        for (int s = 0; s < 4; s++) {
            int p = q[s];
            while (p) {
                int r = __builtin_ctz((unsigned)p);
                int d = total - base[s] + RUN_DEADWOOD[q[s] ^ (1 << r)];
                int i = 13 * s + r;
                if (d < after[i]) after[i] = d;
                p &= p - 1;
            }
        }
    } while (removals_next(&rv));
}

static int least_after_c(uint64_t mask, int skip) {
    if (skip < 0 && !three_of(mask)) {
        int least = BIG, total = 0;
        for (int s = 0; s < 4; s++) {
            int p = (int)((mask >> (13 * s)) & SUIT_BITS);
            total += RUN_DEADWOOD[p];
        }
        for (int s = 0; s < 4; s++) {
            int p = (int)((mask >> (13 * s)) & SUIT_BITS);
            if (p) {
                int d = total - RUN_DEADWOOD[p] + LEAST_AFTER[p];
                if (d < least) least = d;
            }
        }
        return least;
    }
    int after[NCARDS], least = BIG;
    after_c(mask, after);
    for (int i = 0; i < NCARDS; i++)
        if (i != skip && after[i] < least) least = after[i];
    return least;
}

/* ------------------------------------------------------------------------------------ */
/* Python glue */

/* Bits 0 to 51 of an int (two's complement, as Python's & reads them); TypeError for
 * anything but an int, as the pure kernels raise. */
static int read_mask(PyObject *arg, uint64_t *out) {
    if (!PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "a hand mask is an int, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLongMask(arg);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (uint64_t)v & (((uint64_t)1 << NCARDS) - 1);
    return 0;
}

static PyObject *sp_init(PyObject *self, PyObject *args) {
    PyObject *type, *cards;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &type, &PyTuple_Type, &cards))
        return NULL;
    if (PyTuple_GET_SIZE(cards) != NCARDS) {
        PyErr_SetString(PyExc_ValueError, "init takes the 52 cards in card order");
        return NULL;
    }
    PyObject *descr = PyObject_GetAttrString(type, "bit");
    if (descr == NULL) return NULL;
    /* The slot's member descriptor: its offset lets the bit be read without a lookup. */
    if (!Py_IS_TYPE(descr, &PyMemberDescr_Type) ||
        ((PyMemberDescrObject *)descr)->d_member->type != T_OBJECT_EX ||
        ((PyMemberDescrObject *)descr)->d_common.d_type != (PyTypeObject *)type) {
        Py_DECREF(descr);
        PyErr_SetString(PyExc_TypeError, "Card.bit is not a slot of Card");
        return NULL;
    }
    Py_ssize_t offset = ((PyMemberDescrObject *)descr)->d_member->offset;
    Py_DECREF(descr);
    for (Py_ssize_t k = 0; k < NCARDS; k++) {
        PyObject *card = PyTuple_GET_ITEM(cards, k);
        if (!Py_IS_TYPE(card, (PyTypeObject *)type)) {
            PyErr_SetString(PyExc_TypeError, "init takes the 52 cards in card order");
            return NULL;
        }
        /* card k in rank-major order is rank k // 4 + 1 of suit k % 4 */
        int index = (int)((k % 4) * 13 + k / 4);
        by_index[index] = card;
    }
    Py_INCREF(type);
    Py_XSETREF(card_type, (PyTypeObject *)type);
    Py_INCREF(cards);
    Py_XSETREF(by_rank_major, cards);
    bit_offset = offset;
    Py_RETURN_NONE;
}

/* The card's bit if `item` is exactly a Card with a one-bit `bit` below 2**52, else 0. */
static inline uint64_t card_bit(PyObject *item) {
    if (!Py_IS_TYPE(item, card_type)) return 0;
    PyObject *bit = *(PyObject **)((char *)item + bit_offset);
    if (bit == NULL || !PyLong_CheckExact(bit)) return 0;
    unsigned long long v = PyLong_AsUnsignedLongLong(bit);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (v == 0 || (v & (v - 1)) || (v >> NCARDS)) return 0;
    return (uint64_t)v;
}

static PyObject *sp_mask_of(PyObject *self, PyObject *seq) {
    if (card_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "box_gin._speedups.init was not called");
        return NULL;
    }
    uint64_t mask = 0;
    if (PyTuple_CheckExact(seq) || PyList_CheckExact(seq)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        PyObject **items = PySequence_Fast_ITEMS(seq);
        for (Py_ssize_t k = 0; k < n; k++) {
            uint64_t b = card_bit(items[k]);
            if (!b || (mask & b)) return PyLong_FromLong(-1);
            mask |= b;
        }
    } else if (PyAnySet_CheckExact(seq)) {
        PyObject *it = PyObject_GetIter(seq);
        if (it == NULL) return NULL;
        PyObject *item;
        while ((item = PyIter_Next(it)) != NULL) {
            uint64_t b = card_bit(item);
            Py_DECREF(item);
            if (!b || (mask & b)) {
                Py_DECREF(it);
                return PyLong_FromLong(-1);
            }
            mask |= b;
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) return NULL;
    } else {
        return PyLong_FromLong(-1);
    }
    return PyLong_FromUnsignedLongLong(mask);
}

static PyObject *sp_best(PyObject *self, PyObject *arg) {
    uint64_t mask, in_sets;
    if (read_mask(arg, &mask) < 0) return NULL;
    int value = best_c(mask, &in_sets);
    PyObject *v = PyLong_FromLong(value);
    if (v == NULL) return NULL;
    PyObject *s = PyLong_FromUnsignedLongLong(in_sets);
    if (s == NULL) {
        Py_DECREF(v);
        return NULL;
    }
    PyObject *out = PyTuple_New(2);
    if (out == NULL) {
        Py_DECREF(v);
        Py_DECREF(s);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, v);
    PyTuple_SET_ITEM(out, 1, s);
    return out;
}

static PyObject *sp_best_cards(PyObject *self, PyObject *seq) {
    PyObject *m = sp_mask_of(self, seq);
    if (m == NULL) return NULL;
    long long signed_mask = PyLong_AsLongLong(m);
    if (signed_mask == -1 && PyErr_Occurred()) {
        Py_DECREF(m);
        return NULL;
    }
    if (signed_mask < 0) {
        Py_DECREF(m);
        return Py_BuildValue("(iii)", -1, 0, 0);
    }
    uint64_t in_sets;
    int value = best_c((uint64_t)signed_mask, &in_sets);
    PyObject *out = Py_BuildValue("(NiK)", m, value, (unsigned long long)in_sets);
    return out;
}

static PyObject *sp_min_deadwood(PyObject *self, PyObject *arg) {
    uint64_t mask;
    if (read_mask(arg, &mask) < 0) return NULL;
    return PyLong_FromLong(min_deadwood_c(mask));
}

static int need_init(void) {
    if (by_rank_major == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "box_gin._speedups.init was not called");
        return -1;
    }
    return 0;
}

static PyObject *sp_discard_table(PyObject *self, PyObject *arg) {
    uint64_t mask;
    if (read_mask(arg, &mask) < 0 || need_init() < 0) return NULL;
    int after[NCARDS];
    after_c(mask, after);
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    for (int k = 0; k < NCARDS; k++) {
        int i = (k % 4) * 13 + k / 4;
        if (!(mask >> i & 1)) continue;
        /* (sort key Card._order = rank * 4 + suit, card, index, deadwood) */
        PyObject *row = Py_BuildValue("(iOii)", k + 4, by_index[i], i, after[i]);
        if (row == NULL || PyList_Append(out, row) < 0) {
            Py_XDECREF(row);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(row);
    }
    return out;
}

static PyObject *sp_after_each(PyObject *self, PyObject *arg) {
    uint64_t mask;
    if (read_mask(arg, &mask) < 0 || need_init() < 0) return NULL;
    int after[NCARDS];
    after_c(mask, after);
    PyObject *out = PyDict_New();
    if (out == NULL) return NULL;
    for (int k = 0; k < NCARDS; k++) {
        int i = (k % 4) * 13 + k / 4;
        if (!(mask >> i & 1)) continue;
        PyObject *d = PyLong_FromLong(after[i]);
        if (d == NULL || PyDict_SetItem(out, by_index[i], d) < 0) {
            Py_XDECREF(d);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(d);
    }
    return out;
}

static PyObject *sp_least_after(PyObject *self, PyObject *args) {
    PyObject *m;
    int skip;
    uint64_t mask;
    if (!PyArg_ParseTuple(args, "Oi", &m, &skip) || read_mask(m, &mask) < 0) return NULL;
    return PyLong_FromLong(least_after_c(mask, skip));
}

static PyObject *sp_knockable(PyObject *self, PyObject *args) {
    PyObject *m;
    int limit, skip;
    uint64_t mask;
    if (!PyArg_ParseTuple(args, "Oii", &m, &limit, &skip) || read_mask(m, &mask) < 0)
        return NULL;
    int after[NCARDS];
    after_c(mask, after);
    uint64_t out = 0;
    for (int i = 0; i < NCARDS; i++)
        if (i != skip && (mask >> i & 1) && after[i] <= limit) out |= (uint64_t)1 << i;
    return PyLong_FromUnsignedLongLong(out);
}

/* ------------------------------------------------------------------------------------ */
/* The review's playout: the twin of box_gin/review/playout.py (finish), same codes, same
 * policy, same scores; the pure module says what each step does. */

enum { P_TAKE, P_PASS, P_DRAW_STOCK, P_DRAW_DISCARD, P_DISCARD, P_KNOCK, P_BIG_GIN };
enum { P_OFFER, P_DRAW, P_DISCARD_PHASE, P_OVER };
#define DRAW_AT_STOCK 2

typedef struct {
    int limit, gin, undercut, big, big_bonus, may_taken, doubled, keep_stock;
} PParams;
typedef struct {
    uint64_t hands[2];
    int stock[NCARDS], ns, pile[NCARDS], np;
    int to_play, phase, taken, must;
} PWorld;

static inline int value_of(int i) { int r = i % 13 + 1; return r < 10 ? r : 10; }

/* The cards that meld with card i: its rank, and its suit at two ranks either side
 * (playout._NEAR). */
static uint64_t P_NEAR[NCARDS];
static int p_near_ready = 0;

static void p_near_init(void) {
    for (int i = 0; i < NCARDS; i++) {
        int rank = i % 13, suit = i / 13;
        uint64_t out = 0;
        for (int s = 0; s < 4; s++) out |= (uint64_t)1 << (s * 13 + rank);
        for (int r = rank - 2; r <= rank + 2; r++)
            if (r >= 0 && r < 13) out |= (uint64_t)1 << (suit * 13 + r);
        P_NEAR[i] = out & ~((uint64_t)1 << i);
    }
    p_near_ready = 1;
}

static void p_greedy(const PWorld *w, const PParams *pp, int *action, int *card) {
    uint64_t mask = w->hands[w->to_play];
    *card = -1;
    if (w->phase == P_OFFER || w->phase == P_DRAW) {
        if (w->np > 0 && (w->phase == P_OFFER || !w->must)) {
            int top = w->pile[w->np - 1];
            uint64_t with = mask | (uint64_t)1 << top;
            int now = min_deadwood_c(mask);
            int after = least_after_c(with, pp->may_taken ? -1 : top);
            if ((after < now && min_deadwood_c(with) < now + value_of(top)) ||
                after <= pp->limit) {
                *action = w->phase == P_OFFER ? P_TAKE : P_DRAW_DISCARD;
                return;
            }
        }
        *action = w->phase == P_OFFER ? P_PASS : P_DRAW_STOCK;
        return;
    }
    if (pp->big && min_deadwood_c(mask) == 0) {
        *action = P_BIG_GIN;
        return;
    }
    int skip = pp->may_taken ? -1 : w->taken, after[NCARDS];
    after_c(mask, after);
    int pick = -1, least = BIG, kv = -1, ko = -1;
    for (int i = 0; i < NCARDS; i++) {
        if (!(mask >> i & 1) || i == skip) continue;
        int v = value_of(i), o = (i % 13 + 1) * 4 + i / 13;
        if (after[i] < least || (after[i] == least && (v > kv || (v == kv && o > ko)))) {
            pick = i, least = after[i], kv = v, ko = o;
        }
    }
    if (least > pp->limit) {
        /* not knocking: an unconnected card first, within keep of the least deadwood
         * (playout.keep_window: the stock's size less keep_stock, at least 0), then the
         * least deadwood, then the highest */
        int keep = w->ns > pp->keep_stock ? w->ns - pp->keep_stock : 0;
        int best = -1, bconn = 2, bafter = BIG, bv = -1, bo = -1;
        for (int i = 0; i < NCARDS; i++) {
            if (!(mask >> i & 1) || i == skip || after[i] > least + keep) continue;
            int conn = (mask & P_NEAR[i]) != 0, v = value_of(i), o = (i % 13 + 1) * 4 + i / 13;
            if (conn < bconn || (conn == bconn && (after[i] < bafter || (after[i] == bafter &&
                (v > bv || (v == bv && o > bo)))))) {
                best = i, bconn = conn, bafter = after[i], bv = v, bo = o;
            }
        }
        pick = best, least = bafter;
    }
    *card = pick;
    *action = least <= pp->limit ? P_KNOCK : P_DISCARD;
}

static void p_apply(PWorld *w, int action, int card) {
    int p = w->to_play;
    if (action == P_TAKE || action == P_DRAW_DISCARD) {
        int c = w->pile[--w->np];
        w->hands[p] |= (uint64_t)1 << c;
        w->phase = P_DISCARD_PHASE, w->taken = c;
    } else if (action == P_PASS) {
        if (p == 0) w->to_play = 1;
        else w->to_play = 0, w->phase = P_DRAW, w->must = 1;
    } else if (action == P_DRAW_STOCK) {
        w->hands[p] |= (uint64_t)1 << w->stock[--w->ns];
        w->phase = P_DISCARD_PHASE, w->taken = -1, w->must = 0;
    } else if (action == P_DISCARD) {
        w->hands[p] &= ~((uint64_t)1 << card);
        w->pile[w->np++] = card;
        if (w->ns <= DRAW_AT_STOCK) w->phase = P_OVER;
        else w->to_play = 1 - p, w->phase = P_DRAW, w->taken = -1;
    } else {
        if (action == P_KNOCK) {
            w->hands[p] &= ~((uint64_t)1 << card);
            w->pile[w->np++] = card;
        }
        w->phase = P_OVER;
    }
}

/* The defender's least deadwood after its layoffs onto the knocker's melds. */
static int p_defender(uint64_t layout, uint64_t in_sets, uint64_t def) {
    uint64_t opts[16][64]; /* a run's chains hold at most 10 cards: (a+1)(b+1) <= 36 */
    int count[16], n = 0;
    for (int r = 0; r < 13; r++) {
        int sm = (int)((in_sets >> r & 1) | (in_sets >> (13 + r) & 1) << 1 |
                       (in_sets >> (26 + r) & 1) << 2 | (in_sets >> (39 + r) & 1) << 3);
        if (__builtin_popcount((unsigned)sm) != 3) continue;
        int missing = 13 * __builtin_ctz((unsigned)(~sm & 0xF)) + r;
        if (def >> missing & 1) {
            opts[n][0] = 0, opts[n][1] = (uint64_t)1 << missing, count[n++] = 2;
        }
    }
    uint64_t runs = melded_after(layout, in_sets) & ~in_sets;
    for (int s = 0; s < 4; s++) {
        int pattern = (int)(runs >> (13 * s) & SUIT_BITS), r = 0;
        while (r < 13) {
            if (!(pattern >> r & 1)) { r++; continue; }
            int start = r;
            while (r < 13 && (pattern >> r & 1)) r++;
            uint64_t above[14], below[14], m = 0;
            int na = 1, nb = 1;
            above[0] = below[0] = 0;
            for (int q = r; q < 13 && (def >> (13 * s + q) & 1); q++)
                m |= (uint64_t)1 << (13 * s + q), above[na++] = m;
            m = 0;
            for (int q = start - 1; q >= 0 && (def >> (13 * s + q) & 1); q--)
                m |= (uint64_t)1 << (13 * s + q), below[nb++] = m;
            if (na * nb > 1 && n < 16) {
                int k = 0;
                for (int a = 0; a < na; a++)
                    for (int b = 0; b < nb && k < 64; b++) opts[n][k++] = above[a] | below[b];
                count[n++] = k;
            }
        }
    }
    int least = min_deadwood_c(def), digit[16] = {0};
    if (n == 0) return least;
    for (;;) {
        uint64_t laid = 0;
        int clash = 0;
        for (int j = 0; j < n && !clash; j++) {
            uint64_t o = opts[j][digit[j]];
            if (laid & o) clash = 1;
            laid |= o;
        }
        if (!clash && laid) {
            int d = min_deadwood_c(def & ~laid);
            if (d < least) least = d;
        }
        int j = n - 1;
        while (j >= 0 && ++digit[j] == count[j]) digit[j--] = 0;
        if (j < 0) break;
    }
    return least;
}

static int p_score(const PWorld *w, const PParams *pp, int knocker, int big) {
    uint64_t held = w->hands[knocker], def = w->hands[1 - knocker], in_sets;
    int factor = pp->doubled ? 2 : 1;
    if (big) return factor * (pp->big_bonus + min_deadwood_c(def));
    int k = best_c(held, &in_sets);
    if (k == 0) return factor * (pp->gin + min_deadwood_c(def));
    int d = p_defender(held, in_sets, def);
    if (k < d) return factor * (d - k);
    return -factor * (pp->undercut + k - d);
}

static int p_finish(PWorld *w, const PParams *pp, int seat, int action, int card) {
    for (;;) {
        int player = w->to_play;
        p_apply(w, action, card);
        if (w->phase == P_OVER) {
            if (action == P_KNOCK || action == P_BIG_GIN) {
                int points = p_score(w, pp, player, action == P_BIG_GIN);
                return player == seat ? points : -points;
            }
            return 0;
        }
        p_greedy(w, pp, &action, &card);
    }
}

static int read_cards(PyObject *seq, int *out, int *n) {
    PyObject *fast = PySequence_Fast(seq, "expected a list of card indices");
    if (fast == NULL) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > NCARDS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "more than 52 cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (c == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (c < 0 || c >= NCARDS) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "a card index is 0 to 51");
            return -1;
        }
        out[i] = (int)c;
    }
    *n = (int)len;
    Py_DECREF(fast);
    return 0;
}

/* finish_each(params, hand0, hand1, stock, pile, to_play, phase, taken, must, seat, actions)
 * -> [points of each (action, card) of actions, signed for seat] */
static PyObject *sp_finish_each(PyObject *self, PyObject *args) {
    PParams pp;
    PWorld w0;
    unsigned long long h0, h1;
    PyObject *stock, *pile, *actions;
    int seat;
    if (!PyArg_ParseTuple(args, "(iiiiiiii)KKOOiiiiiO", &pp.limit, &pp.gin, &pp.undercut,
                          &pp.big, &pp.big_bonus, &pp.may_taken, &pp.doubled, &pp.keep_stock,
                          &h0, &h1,
                          &stock, &pile, &w0.to_play, &w0.phase, &w0.taken, &w0.must, &seat,
                          &actions))
        return NULL;
    if (!p_near_ready) p_near_init();
    w0.hands[0] = h0 & (((uint64_t)1 << NCARDS) - 1);
    w0.hands[1] = h1 & (((uint64_t)1 << NCARDS) - 1);
    if (read_cards(stock, w0.stock, &w0.ns) < 0 || read_cards(pile, w0.pile, &w0.np) < 0)
        return NULL;
    PyObject *fast = PySequence_Fast(actions, "expected a list of (action, card) pairs");
    if (fast == NULL) return NULL;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
    PyObject *out = PyList_New(m);
    if (out == NULL) { Py_DECREF(fast); return NULL; }
    for (Py_ssize_t i = 0; i < m; i++) {
        int action, card;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ii", &action, &card)) {
            Py_DECREF(fast);
            Py_DECREF(out);
            return NULL;
        }
        PWorld w = w0;
        PyObject *v = PyLong_FromLong(p_finish(&w, &pp, seat, action, card));
        if (v == NULL) { Py_DECREF(fast); Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, v);
    }
    Py_DECREF(fast);
    return out;
}

static PyMethodDef methods[] = {
    {"init", sp_init, METH_VARARGS, "init(card_type, by_rank_major): the Card class and "
     "the 52 cards in card order (rank, then suit)."},
    {"mask_of", sp_mask_of, METH_O, "mask_of(cards): the 52-bit mask of a tuple, list, set "
     "or frozenset of distinct Cards, else -1."},
    {"best", sp_best, METH_O, "best(mask): (least deadwood, mask of the cards in sets), "
     "with best_melds' tie-break."},
    {"best_cards", sp_best_cards, METH_O, "best_cards(cards): (mask, least deadwood, mask of "
     "the cards in sets) of mask_of(cards), or (-1, 0, 0)."},
    {"min_deadwood", sp_min_deadwood, METH_O, "min_deadwood(mask): the least deadwood."},
    {"discard_table", sp_discard_table, METH_O, "discard_table(mask): (sort key, card, "
     "index, least deadwood after discarding it) for each card, in card order."},
    {"after_each", sp_after_each, METH_O, "after_each(mask): {card: least deadwood after "
     "discarding it}, in card order."},
    {"least_after", sp_least_after, METH_VARARGS, "least_after(mask, skip): the least "
     "deadwood after discarding any card but the one of index skip (-1: none)."},
    {"knockable", sp_knockable, METH_VARARGS, "knockable(mask, limit, skip): the mask of "
     "the cards but skip whose discard leaves at most limit."},
    {"finish_each", sp_finish_each, METH_VARARGS, "finish_each(params, hand0, hand1, stock, "
     "pile, to_play, phase, taken, must, seat, actions): the review's playout "
     "(box_gin/review/playout.py finish) of each (action, card), signed for seat."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "box_gin._speedups",
    "The compiled kernels of box_gin.kernels.", -1, methods,
};

PyMODINIT_FUNC PyInit__speedups(void) {
    build_tables();
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    /* PLAYOUT: the version of finish_each's policy and arguments (playout.py uses a
     * build of its own version only) */
    if (PyModule_AddIntConstant(m, "ABI", 2) < 0 ||
        PyModule_AddIntConstant(m, "PLAYOUT", 3) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
