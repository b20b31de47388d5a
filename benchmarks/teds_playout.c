/* A plain C reference for cardlab's Ted's Game random playout (benchmarks/teds_vs_c.py).

   It makes exactly cardlab's choices: per hand it takes the seeded deal's stream (the
   SHAKE-128 words cardlab.kernel.seeded_stream gives, computed by Python), shuffles the deck
   with it as cardlab.kernel.shuffle_prefix does, deals one card at a time from the dealer's
   left, turns the next card up for trump, then plays the hand at random as
   TedsKernel.random_playout does: each choice the int(r * n)-th of the n legal actions, r
   from Python's random.random() (a Mersenne Twister whose state comes from
   random.Random.getstate()), the bids with the hook, the cards following suit, and the hand
   scored. The hands are held as bit masks, the cheapest way C has.

   Built by the benchmark with the system cc into a temporary folder and loaded with ctypes;
   nothing of it is committed but this source. */

#include <stdint.h>
#include <string.h>

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} twister;

/* CPython's genrand_uint32 (Modules/_randommodule.c). */
static uint32_t genrand(twister *self) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    uint32_t *mt = self->mt;
    if (self->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        self->index = 0;
    }
    y = mt[self->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.random(): 53 bits from two words. */
static double random_double(twister *self) {
    uint32_t a = genrand(self) >> 5, b = genrand(self) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static int pick(twister *rng, int n) { return (int)(random_double(rng) * n); }

static int lowest(uint64_t mask) { return __builtin_ctzll(mask); }

static int kth(uint64_t mask, int k) {
    while (k-- > 0) mask &= mask - 1;
    return lowest(mask);
}

static int score(int bid, int taken, int dealt) {
    if (taken == bid) return 10 + (bid == 0 ? dealt : bid * bid);
    int miss = taken > bid ? taken - bid : bid - taken;
    return -miss * miss * miss;
}

#define NCARDS 52
#define RANKS 13

/* Play ``hands`` hands of ``nseats`` seats, ``size`` cards each, dealt by ``dealer``.
   ``streams``: per hand, 4 * (nseats * size + 1) bytes of the deal's stream.
   ``state``: the twister's 624 words and its index (random.Random.getstate()[1]), updated.
   ``actions`` (or NULL): per hand, the bids (in bidding order) then the cards (in play
   order). ``scores`` (or NULL): per hand, each seat's score. Returns the sum of the scores
   (so that no work can be left out). */
long play_hands(int hands, int nseats, int size, int dealer, const uint8_t *streams,
                uint32_t *state, int16_t *actions, int32_t *scores) {
    twister rng;
    memcpy(rng.mt, state, sizeof rng.mt);
    rng.index = (int)state[MT_N];
    const int places = nseats * size + 1;
    const int left = dealer + 1 < nseats ? dealer + 1 : 0;
    uint8_t suit_of[NCARDS], in_order[NCARDS];
    uint64_t suit_mask[4];
    for (int s = 0; s < 4; s++) suit_mask[s] = ((1ULL << RANKS) - 1) << (s * RANKS);
    for (int c = 0; c < NCARDS; c++) {
        suit_of[c] = (uint8_t)(c / RANKS);
        in_order[c] = (uint8_t)c;
    }
    int next[8];  /* the seat to a seat's left */
    for (int s = 0; s < nseats; s++) next[s] = s + 1 < nseats ? s + 1 : 0;
    long total = 0;
    for (int h = 0; h < hands; h++) {
        const uint8_t *stream = streams + (size_t)h * 4 * places;
        int16_t *out = actions ? actions + (size_t)h * (nseats + nseats * size) : NULL;
        uint8_t deck[NCARDS];
        memcpy(deck, in_order, NCARDS);
        for (int i = 0; i < places; i++) {  /* shuffle_prefix */
            uint64_t word = (uint64_t)stream[4 * i] | ((uint64_t)stream[4 * i + 1] << 8) |
                            ((uint64_t)stream[4 * i + 2] << 16) |
                            ((uint64_t)stream[4 * i + 3] << 24);
            int j = i + (int)((word * (uint64_t)(NCARDS - i)) >> 32);
            uint8_t card = deck[j];
            deck[j] = deck[i];
            deck[i] = card;
        }
        uint64_t held[8] = {0};
        for (int i = 0, seat = left; i < nseats * size; i++, seat = next[seat])
            held[seat] |= 1ULL << deck[i];  /* one at a time from the dealer's left */
        const int trump = suit_of[deck[nseats * size]];
        int bids[8], total_bid = 0;
        for (int k = 0, seat = left; k < nseats; k++, seat = next[seat]) {
            int bid;  /* the bids, the dealer last under the hook */
            if (seat == dealer) {
                int forbidden = size - total_bid;
                if (forbidden >= 0 && forbidden <= size) {
                    bid = pick(&rng, size);  /* the size + 1 bids less the forbidden one */
                    if (bid >= forbidden) bid++;
                } else {
                    bid = pick(&rng, size + 1);
                }
            } else {
                bid = pick(&rng, size + 1);
            }
            bids[seat] = bid;
            total_bid += bid;
            if (out) *out++ = (int16_t)(100 + bid);
        }
        int taken[8] = {0};
        int leader = left;
        for (int t = 0; t < size; t++) {  /* the tricks */
            int led = -1, win_seat = -1, win_card = -1;
            for (int k = 0, seat = leader; k < nseats; k++, seat = next[seat]) {
                uint64_t choices = held[seat];
                if (led >= 0) {
                    uint64_t follow = held[seat] & suit_mask[led];
                    if (follow) choices = follow;
                }
                int card = kth(choices, pick(&rng, __builtin_popcountll(choices)));
                held[seat] &= ~(1ULL << card);
                int suit = suit_of[card];
                if (out) *out++ = (int16_t)card;
                if (led < 0) {
                    led = suit;
                    win_seat = seat;
                    win_card = card;
                } else {
                    int best_suit = suit_of[win_card];
                    if ((suit == best_suit && card > win_card) ||
                        (suit == trump && best_suit != trump)) {
                        win_seat = seat;
                        win_card = card;
                    }
                }
            }
            taken[win_seat]++;
            leader = win_seat;
        }
        for (int seat = 0; seat < nseats; seat++) {
            int points = score(bids[seat], taken[seat], size);
            total += points;
            if (scores) scores[(size_t)h * nseats + seat] = points;
        }
    }
    memcpy(state, rng.mt, sizeof rng.mt);
    state[MT_N] = (uint32_t)rng.index;
    return total;
}
