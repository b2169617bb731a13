// The one full-move enumerator every variant shares.
//
// A variant policy P supplies the geometry and the rules; the enumerator supplies the dice
// logic that is the same everywhere: four dice for a double, both orders for a non-double,
// as many dice as possible, the larger die when only one of a non-double can be played, and
// deduplication by resulting position. The policy interface:
//
//   struct P {
//     struct State { Position pos; ... };            // position + per-turn bookkeeping
//     // True when no step was rejected since the last reset for a reason that depends on the
//     // order of steps (e.g. a whole-board rule checked after every step). While it stays
//     // false, same-die steps commute and independent steps of a non-double commute.
//     bool order_mattered() const;  void reset_order_flag() const;
//     // Fills out[0..n) with the starting states of the turn and returns n. State k > 0 is a
//     // relaxation: its moves replace the previous ones only if they play strictly more dice.
//     int begin_turn(const Position&, int d1, int d2, State out[2]) const;
//     uint32_t sources(const State&, int die) const;   // slots that may move with the die
//                                                      // (bit 24: enter); the step functions
//                                                      // are called only for these, and check
//                                                      // whatever sources() leaves open
//     template <class F> void for_each_step(const State&, int from, int die, F&& f) const;
//                                                      // calls f(const State& next, Step) for
//                                                      // every legal single step
//     bool final_ok(const State&) const;               // whole-turn check of a finished move
//     bool must_pass(const Position&, int d1, int d2) const;
//                                                      // optional: true only when the roll
//                                                      // passes (a cheap test made before
//                                                      // begin_turn, e.g. a closed board
//                                                      // against a checker on the bar)
//     static constexpr bool kCommutativeDoubles;       // optional, default true: false when
//                                                      // same-die steps never commute safely
//     static constexpr bool kLastStep;                 // optional, default false: true with
//     template <class F> void for_each_last_step(const State&, int from, int die, F&& f) const;
//                                                      // calls f(const Position& result, Step)
//                                                      // for every legal last step of a move
//                                                      // whose result passes final_ok
//     static constexpr bool kExactLastSources;         // optional, default false: true when
//                                                      // every source of sources() has exactly
//                                                      // one legal step, and one legal last
//                                                      // step (passing final_ok), steps go
//                                                      // from index i to i - die (off below
//                                                      // 0), order never matters and a turn
//                                                      // has one start: then pick() counts
//                                                      // moves instead of making them, with:
//     uint32_t next_sources(const State&, int from, int die, int next_die) const;
//                                                      // sources(state after the step, next_die)
//                                                      // without making the step
//     uint32_t quiet_points(const State&) const;       // the points where a checker lands
//                                                      // without side effects (a hit)
//     bool exact_turn(const State&, int d1, int d2) const;
//                                                      // optional: false when the turn from
//                                                      // this start may break the promises of
//                                                      // kExactLastSources (a rule that is
//                                                      // exact only where it cannot bite):
//                                                      // count() then lists the moves
//     bool plain_sources(const State&, PlainSources&) const;
//                                                      // optional: true (and the masks) when
//                                                      // the state's sources follow the plain
//                                                      // rule there and one step away; pick()
//                                                      // then counts two-step moves from masks
//     int dice_sequence(int d1, int d2, int turn, DiceGroup out[kMaxGroups]) const;
//                                                      // optional: the turn the roll gives,
//                                                      // as groups of dice played one after
//                                                      // the other (SequenceEnumerator below)
//     int dice_bound(const Position&, const DiceGroup* groups, int n) const;
//                                                      // optional: at most how many dice of
//                                                      // groups[0..n) a move can play; the
//                                                      // sequence pick's lookahead stops there
//     bool order_may_matter(const State& start) const;
//                                                      // optional: true when a non-double from
//                                                      // this start is likely to raise the
//                                                      // order flag; the search of both orders
//                                                      // then runs once, without the skip
//     uint32_t unswapped_targets(const State&, Step earlier, int from) const;
//                                                      // optional, for doubles searched in
//                                                      // every order: the targets of steps
//                                                      // from `from` (above earlier.from)
//                                                      // that, made right after `earlier`
//                                                      // (the state after it is given),
//                                                      // could NOT have been made first with
//                                                      // the same two steps and the same state
//                                                      // after both; for_each_step and
//                                                      // for_each_last_step then take a fifth
//                                                      // argument, a mask of the targets to
//                                                      // yield (see doubles())
//     uint32_t unswapped_sources(const State&, Step earlier) const;
//                                                      // optional beside it: a superset of
//                                                      // the sources above earlier.from whose
//                                                      // unswapped targets are not empty (the
//                                                      // rest are not tried at all)
//     static bool pairs_may_meet(Step first, Step second);
//                                                      // optional: for a non-double searched
//                                                      // with the commuting skip, false when
//                                                      // no other pair of steps of the two
//                                                      // dice reaches the same result (in
//                                                      // place of may_meet()'s rule, which
//                                                      // assumes one step per source)
//   };
//
// kCommutativeDoubles = true also promises that for_each_step yields at most one step for a
// (state, source, die) and that a step's effect depends only on its source and die. Then a move
// is determined by the multiset of its sources, so the ordered search of doubles meets each
// result once, and two orders of a non-double meet only through the cases named at
// may_meet(): those results alone go through the hash set.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <array>
#include <concepts>
#include <type_traits>
#include <vector>

#include "nardy/movelist.hpp"
#include "nardy/position.hpp"

namespace nardy {

template <class P>
class Enumerator {
 public:
  using State = typename P::State;

  explicit Enumerator(const P& policy) : policy_(policy) {}

  // Replaces `out` with every legal complete move of `pos` for the roll (d1, d2). An empty
  // list means the player cannot move (the turn passes). Dice are 1..6, validated by callers.
  void generate(const Position& pos, int d1, int d2, MoveList& out) {
    if (must_pass(pos, d1, d2)) {
      out.clear();
      best_score_ = 0;
      return;
    }
    // A policy that counts (its begin_turn writes every field it reads, as count() relies on)
    // starts in a member: a fresh stack array would be value-initialised on every call.
    if constexpr (counts_last_steps()) {
      generate_from(list_starts_, pos, d1, d2, out);
    } else {
      State starts[2];
      generate_from(starts, pos, d1, d2, out);
    }
  }

  // Dice the last generate() could play (0 when the turn passes).
  [[nodiscard]] int dice_played() const noexcept { return best_score_ >> kPipBits; }

 private:
  NARDY_HOT void generate_from(State* starts, const Position& pos, int d1, int d2, MoveList& out) {
    const int n_starts = policy_.begin_turn(pos, d1, d2, starts);
    run(starts[0], d1, d2, out);
    for (int k = 1; k < n_starts; ++k) {
      const int score_before = best_score_;
      spare_.clear();
      run(starts[k], d1, d2, spare_);
      if (dice_played() > score_before >> kPipBits) {
        out.swap(spare_);
      } else {
        best_score_ = score_before;
      }
    }
  }

 public:
  // The number of moves generate() would list (0: the turn passes). With kExactLastSources
  // they are counted, not made: a search node records the last steps it would make as one
  // segment (a bit each, in list order), plain turns are counted from masks; see pick().
  size_t count(const Position& pos, int d1, int d2) {
    if (must_pass(pos, d1, d2)) {
      counted_ = false;
      picked_.clear();
      best_score_ = 0;
      return 0;
    }
    if constexpr (counts_last_steps()) {
      // (begin_turn writes the start in place: copied out of a fresh stack array it was read
      // whole right after being written field by field, a store-forwarding stall a turn.)
      if (policy_.begin_turn(pos, d1, d2, starts_) == 1 && exact_turn(starts_[0], d1, d2)) {
        counted_ = true;
        drop_segments();
        run<true>(starts_[0], d1, d2, picked_);
        return total_;
      }
    }
    counted_ = false;
    generate(pos, d1, d2, picked_);
    return picked_.size();
  }

  // The move generate() would list at index index_of(n), n the number of legal moves, made
  // alone (a random player needs one move, not all of them): after count(), the segment
  // holding the move is found, its steps are replayed from the start and only the chosen last
  // step is made. Repeated results are dropped exactly as record() drops them, so the count
  // and the order are generate()'s. Returns false when the turn passes.
  template <class IndexOf>
  bool pick(const Position& pos, int d1, int d2, IndexOf&& index_of, Position& result) {
    const size_t n = count(pos, d1, d2);
    if (n == 0) return false;
    result = counted_move(index_of(n));
    return true;
  }

  // The move at `index` (below the number count() just returned), as pick() makes it.
  Position counted_move(size_t index) const {
    if constexpr (counts_last_steps()) {
      if (counted_) return segment_result(index);
    }
    return picked_[index].result;
  }

  // The most dice a move of the roll plays (dice_played() after generate()), or `enough` as
  // soon as a play of that many is found: where a longer turn needs only this number of a
  // group, a depth-first search without the list (a double in non-increasing source order,
  // each multiset once; listed after all when that finds too few and the order may matter).
  int most_dice(const Position& pos, int d1, int d2, int enough) {
    if constexpr (!same_die_steps_may_commute()) {
      generate(pos, d1, d2, picked_);
      return dice_played();
    }
    if (must_pass(pos, d1, d2)) return 0;
    State starts[2];
    const int n_starts = policy_.begin_turn(pos, d1, d2, starts);
    int best = 0;
    for (int k = 0; k < n_starts && best < enough; ++k) {
      policy_.reset_order_flag();
      int found;
      if (d1 == d2) {
        const int dice[4] = {d1, d1, d1, d1};
        found = deepest(starts[k], dice, 0, 4, kBar, enough);
        if (found < enough && policy_.order_mattered()) {
          generate(pos, d1, d2, picked_);
          return dice_played();
        }
      } else {  // both orders in full: exact whatever the order flag says
        const int ab[2] = {d1, d2}, ba[2] = {d2, d1};
        found = deepest(starts[k], ab, 0, 2, -1, enough);
        if (found < enough) found = std::max(found, deepest(starts[k], ba, 0, 2, -1, enough));
      }
      best = std::max(best, found);
    }
    return best;
  }

 private:
  // most_dice()'s search from s, dice[depth..n) left: the most played by a move that passes
  // final_ok, stopping at `enough`. max_from >= 0: steps from sources at or below it only (a
  // double's ordered search).
  int deepest(const State& s, const int* dice, int depth, int n, int max_from, int enough) {
    if (depth == n) return policy_.final_ok(s) ? n : 0;
    int best = 0;
    uint32_t src = policy_.sources(s, dice[depth]);
    if (max_from >= 0) src &= (2u << max_from) - 1;
    while (src && best < enough) {
      const int from = highest_bit(src);
      src ^= 1u << from;
      policy_.for_each_step(s, from, dice[depth], [&](const State& next, Step) {
        if (best < enough)
          best = std::max(best, deepest(next, dice, depth + 1, n, max_from < 0 ? -1 : from, enough));
      });
    }
    if (best < depth && policy_.final_ok(s)) best = depth;
    return best;
  }

  // kCount: count()'s search, which records segments of counted moves (see count()); it runs
  // only for policies whose order never matters, so the second passes are not needed.
  template <bool kCount = false>
  void run(const State& start, int d1, int d2, MoveList& out) {
    out_ = &out;
    out.clear();
    best_score_ = 0;
    policy_.reset_order_flag();
    // No source for either die: the turn passes (sources() is a superset of the steps).
    const uint32_t src1 = policy_.sources(start, d1);
    const uint32_t src2 = d1 == d2 ? src1 : policy_.sources(start, d2);
    if ((src1 | src2) == 0) return;
    if (d1 == d2) {
      die_ = d1;
      first_die_ = d1;
      if constexpr (same_die_steps_may_commute()) doubles<true, 0, kCount>(start, kBar);
      if constexpr (kCount) return;
      if (!same_die_steps_may_commute() || policy_.order_mattered()) {  // every order
        out.clear();
        best_score_ = 0;
        seen_.clear();
        doubles<false, 0>(start, kBar);
      }
    } else {
      dice_[0] = d1 > d2 ? d1 : d2;  // larger die first: its moves are found first
      dice_[1] = d1 > d2 ? d2 : d1;
      larger_first_sources_ = 0;
      if constexpr (kCount) {
        count_non_double(start);
        return;
      }
      const uint32_t src_hi = d1 > d2 ? src1 : src2, src_lo = d1 > d2 ? src2 : src1;
      if (order_may_matter(start)) {  // the search without the skip lists the same moves
        skip_commuting_ = false;
        non_double(start, src_hi, src_lo);
        skip_commuting_ = true;
        return;
      }
      non_double(start, src_hi, src_lo);
      if (policy_.order_mattered()) {
        out.clear();
        best_score_ = 0;
        larger_first_sources_ = 0;
        skip_commuting_ = false;
        non_double(start, src_hi, src_lo);
        skip_commuting_ = true;
      }
    }
  }

  // A policy whose checkers may move both ways declares kCommutativeDoubles = false: then the
  // ordered search of doubles can never be complete and is skipped.
  static constexpr bool same_die_steps_may_commute() {
    if constexpr (requires { P::kCommutativeDoubles; }) {
      return P::kCommutativeDoubles;
    } else {
      return true;
    }
  }
  static constexpr bool kOneStepPerSource = same_die_steps_may_commute();
  static constexpr bool counts_last_steps() {
    if constexpr (requires { P::kExactLastSources; }) {
      static_assert(!P::kExactLastSources ||
                        requires(const P& p, const State& s) {
                          p.next_sources(s, 0, 1, 1);
                          p.quiet_points(s);
                        },
                    "kExactLastSources needs next_sources() and quiet_points()");
      return P::kExactLastSources && same_die_steps_may_commute();
    } else {
      return false;
    }
  }
  // The policy's test for a roll that certainly passes, made before the turn's start state.
  bool must_pass(const Position& pos, int d1, int d2) const noexcept {
    if constexpr (requires { policy_.must_pass(pos, d1, d2); }) {
      return policy_.must_pass(pos, d1, d2);
    } else {
      return false;
    }
  }
  // kExactLastSources holds in every turn (no exact_turn() to say when it may not).
  static constexpr bool always_exact() {
    return counts_last_steps() && !requires(const P& p, const State& s) { p.exact_turn(s, 1, 2); };
  }
  // The policy's forecast that a non-double from this start will raise the order flag (most
  // of its turns do): the search then runs once without the commuting skip, instead of once
  // with it and again without it. (Without the skip it lists the same moves in the same
  // order, so a wrong forecast costs time only.)
  bool order_may_matter(const State& s) const noexcept {
    if constexpr (requires { policy_.order_may_matter(s); }) {
      return policy_.order_may_matter(s);
    } else {
      return false;
    }
  }
  bool exact_turn(const State& s, int d1, int d2) const noexcept {
    if constexpr (requires { policy_.exact_turn(s, d1, d2); }) {
      return policy_.exact_turn(s, d1, d2);
    } else {
      return true;
    }
  }
  static constexpr bool has_last_step() {
    if constexpr (requires { P::kLastStep; }) {
      return P::kLastStep;
    } else {
      return false;
    }
  }

  // Transposition key beside the position: the dice used, and whatever per-turn state of the
  // policy can change what follows (e.g. which checkers have hit).
  uint32_t tag(const State& s, int depth) const noexcept {
    if constexpr (requires { policy_.state_tag(s); }) {
      return static_cast<uint32_t>(depth) | (policy_.state_tag(s) << 3);
    } else {
      return static_cast<uint32_t>(depth);
    }
  }

  // Legal plays use the most dice, then the most pips (the larger-die rule): one number orders
  // both, so that keeping the best plays costs one or two compares.
  static constexpr int kPipBits = 5;  // pips <= 24
  static constexpr int play_score(int used, int pips) noexcept { return used << kPipBits | pips; }

  // A complete move: `result` after the steps path_[0..used-2] and `last`. `unique`: no other
  // path of this search can reach the same result. Plays of fewer dice or pips than the best
  // so far are dropped here, so a move that stops early can be offered after its longer
  // continuations have been searched (and is then dropped if one of them was legal).
  // kInlineInsert: the list's insertion is made inline, for the call site most results of a
  // search arrive at (a double's last step); elsewhere it stays a call, to keep the code small.
  template <bool kInlineInsert = false>
  NARDY_HOT void record(const Position& result, Step last, int used, int pips, bool unique) {
    const int score = play_score(used, pips);
    if (score < best_score_) return;
    if (score > best_score_) {
      out_->clear();
      best_score_ = score;
    }
    if (unique) {
      out_->append(result, path_, last, used);
    } else if constexpr (kInlineInsert) {
      out_->insert_inline(result, path_, last, used);
    } else {
      out_->insert(result, path_, last, used);
    }
  }

  // A move that stops after `used` dice (its steps are all in path_), once everything that
  // goes on from it has been searched. The whole-turn check comes after the cheap dice count.
  template <bool kCount = false>
  NARDY_HOT void record_stop(const State& s, int used, int pips, bool unique) {
    if (used == 0 || play_score(used, pips) < best_score_) return;
    if (!policy_.final_ok(s)) return;
    if constexpr (kCount) {
      if (!open_segments(play_score(used, pips))) return;
      if (!unique && !seen_.insert(s.pos, 0)) return;
      add_segment(used, 0, 1);
    } else {
      record(s.pos, path_[used - 1], used, pips, unique);
    }
  }

  // -- pick()'s segments -----------------------------------------------------------------
  // A segment: the steps of path_[0..n_path) from the start, then either nothing (the move
  // stops there: one move), or a last step from each of `sources`, highest first (one move
  // each), or (a pair segment, a double two steps from its end) a step from each of `sources`,
  // highest first, each followed by every last step from a source at or below it. One word,
  // stored at once (the search writes a segment for almost every node):
  //   bits 0-24 sources, 25-34 the number of moves (at most 24 x 24 even on a board no game
  //   reaches), 35-49 the path's sources (5 bits each), 50-51 n_path, 52-54 the die of the
  //   path's steps (a non-double's path is one step), 55-57 the last step's die (0: the move
  //   stops), 58-59 the kind (below).
  static constexpr int kCountShift = 25, kFromShift = 35, kPathShift = 50, kDieShift = 52,
                       kKindShift = 58;
  // Kinds of segment beyond "a last step from each source": a double's node two steps from
  // the end (above); a non-double's larger-die-first moves, a step from each source followed
  // by the smaller die's sources after it (less P2 repeats); a non-double's smaller-die-first
  // moves that go on with the same checker, one move per source.
  static constexpr uint64_t kPairSegment = uint64_t{1} << kKindShift;
  static constexpr uint64_t kLargerFirstSegment = uint64_t{2} << kKindShift;
  static constexpr uint64_t kChainSegment = uint64_t{3} << kKindShift;
  // A double's node three steps from the end: a step from each of `sources`, highest first,
  // each followed by the pairs plain_ordered_pairs() counts after it.
  static constexpr uint64_t kTripleSegment = uint64_t{4} << kKindShift;
  static constexpr uint64_t kKindMask = uint64_t{7} << kKindShift;
  static uint32_t segment_count(uint64_t g) noexcept { return (g >> kCountShift) & 1023; }

  // The same ranking as record(): false when plays of this score are not legal moves (a
  // better play is known), and everything found so far goes when this one is better.
  NARDY_HOT bool open_segments(int score) {
    if (score < best_score_) return false;
    if (score > best_score_) {
      best_score_ = score;
      drop_segments();
    }
    return true;
  }
  void drop_segments() {
    n_segments_ = 0;
    total_ = 0;
    seen_.clear();
  }

  NARDY_HOT void add_segment(int n_path, int last_die, uint32_t count, uint32_t sources = 0,
                             uint64_t kind = 0) {
    if (n_segments_ == segments_capacity_) {
      segments_.resize(segments_.size() * 2 + 16);
      segments_capacity_ = segments_.size();
    }
    uint64_t froms = 0;
    for (int i = 0; i < n_path; ++i) froms |= uint64_t(uint8_t(path_[i].from)) << (5 * i);
    segments_[n_segments_++] = sources | uint64_t{count} << kCountShift | froms << kFromShift |
                               uint64_t(n_path) << kPathShift |
                               uint64_t(first_die_ | last_die << 3) << kDieShift | kind;
    total_ += count;
  }

  NARDY_HOT void replay_step(State& cur, int from, int die) const {
    State next = cur;
    policy_.for_each_step(cur, from, die, [&](const State& n, Step) { next = n; });
    cur = next;
  }

  // Replays the path of the segment holding move `index` from the start and makes the move.
  NARDY_POPCNT_CLONES Position segment_result(size_t index) const {
    size_t k = 0;
    while (index >= segment_count(segments_[k])) index -= segment_count(segments_[k++]);
    const uint64_t g = segments_[k];
    const int n_path = int(g >> kPathShift) & 3;
    const int path_die = int(g >> kDieShift) & 7, last_die = int(g >> (kDieShift + 3)) & 7;
    State cur = starts_[0];
    for (int i = 0; i < n_path; ++i) {  // one step per source (kExactLastSources)
      replay_step(cur, int(g >> (kFromShift + 5 * i)) & 31, path_die);
    }
    if (last_die == 0) return cur.pos;
    uint32_t src = static_cast<uint32_t>(g) & ((1u << kCountShift) - 1);
    uint64_t kind = g & kKindMask;
    if constexpr (counts_plain_stacks()) {
      if (kind == kTripleSegment) {  // its first step found as the count found it, then a pair
        PlainStacks stacks;
        policy_.plain_stacks(cur, 3, stacks);
        for (;;) {
          const int from = highest_bit(src);
          src ^= 1u << from;
          const PlainStacks after = plain_after_step(stacks, from, path_die);
          const uint32_t seconds = after.plain.sources(path_die) & ((2u << from) - 1);
          const uint32_t n = plain_ordered_pairs(after.plain, seconds, path_die);
          if (index < n) {
            replay_step(cur, from, path_die);
            src = seconds;
            break;
          }
          index -= n;
        }
        kind = kPairSegment;
      }
    }
    if (kind == kPairSegment || kind == kLargerFirstSegment) {
      // Find the step before the last as the search would have, then its last steps.
      for (;;) {
        const int from = highest_bit(src);
        src ^= 1u << from;
        uint32_t last = next_sources(cur, from, path_die, last_die);
        if (kind == kPairSegment) {
          last &= (2u << from) - 1;
        } else {
          last &= ~single_checker_repeats(Step{int8_t(from), int8_t(from - path_die), 0}, last_die);
        }
        const uint32_t n = static_cast<uint32_t>(count_bits(last));
        if (index < n) {
          replay_step(cur, from, path_die);
          src = last;
          break;
        }
        index -= n;
      }
    } else if (kind == kChainSegment) {  // the move index-th in src goes on from where it lands
      for (; index > 0; --index) src ^= 1u << highest_bit(src);
      const int from = highest_bit(src);
      replay_step(cur, from, path_die);
      src = 1u << (from - path_die);
      index = 0;
    }
    for (; index > 0; --index) src ^= 1u << highest_bit(src);
    Position result = cur.pos;
    for_each_last_step(cur, highest_bit(src), last_die,
                       [&](const Position& p, Step) { result = p; });
    return result;
  }

  // pick() tells the paths that meet without a bear-off apart by rule (quiet_points()). Off the
  // bear-off, two paths of a non-double meet only when both carry one checker from a point o
  // to o - hi - lo (two checkers moving apart have one result per pair of sources and the
  // commuting skip generates each pair once). Three paths do that, in this order:
  //   P1  hi from o, then lo from o - hi        (first loop, source o)
  //   P2  hi from o - lo, then lo from o        (first loop, source o - lo: o - lo held ours)
  //   P3  lo from o, then hi from o - lo        (second loop: a checker just moved goes on)
  // and their results differ only in what the intermediate landing did (P1 lands on o - hi,
  // P3 on o - lo, P2 on its own point). P1 needs hi legal from o at the start and P2 needs it
  // from o - lo: both are bits of larger_first_sources_ (complete above the current source
  // while the first loop runs, since sources go highest first). So, exactly:
  //   P2 repeats P1 when o is a larger-die source and o - hi is quiet;
  //   P3 repeats P2 when o - lo is a larger-die source, else P1 when o is one and both o - hi
  //   and o - lo are quiet.
  // Every other result of the search is new; bear-offs still go through the hash.
  static constexpr bool counts_plain_pairs() {
    return requires(const P& p, const State& s, PlainSources& ps) { p.plain_sources(s, ps); };
  }

  // Two-step moves counted from PlainSources. After a step from a with die d the sources for
  // die e are those before, less a if its checker was alone, plus a - d if that point is
  // movable for e and was not occupied.
  //
  // A double, two steps from its end, first steps `firsts` (at most max_from), last steps at
  // or below the first: the k-th highest first step (k = 0, 1, ... of m) has m - k sources at
  // or below it, less one if single, plus one if it lands on a new source.
  static uint32_t plain_ordered_pairs(const PlainSources& p, uint32_t firsts, int d) noexcept {
    const int m = count_bits(firsts);
    const uint32_t new_sources = (p.movable(d) & ~p.ours) << d;
    return static_cast<uint32_t>(m * (m + 1) / 2 - count_bits(firsts & p.singles) +
                                 count_bits(firsts & new_sources));
  }
  // Three or four steps from the end of a double: a policy whose plain sources hold that far
  // (plain_stacks) has its nodes there counted from the masks too.
  static constexpr bool counts_plain_stacks() {
    return requires(const P& p, const State& s, PlainStacks& out) { p.plain_stacks(s, 3, out); };
  }
  // The stacks after a step from `from` with die d. The threes after it are not known (the
  // fours are not kept): good for two steps more.
  static PlainStacks plain_after_step(const PlainStacks& c, int from, int d) noexcept {
    const uint32_t left = 1u << from, landed = 1u << (from - d);
    const PlainSources& p = c.plain;
    return PlainStacks{
        PlainSources{(p.ours & ~(p.singles & left)) | landed,
                     (p.singles & ~left & ~landed) | (c.twos & left) | (landed & ~p.ours),
                     p.blocked},
        (c.twos & ~left & ~landed) | (c.threes & left) | (p.singles & landed), 0};
  }
  // plain_ordered_pairs() after a step from b (a source for d; `movable` = movable(d)), the
  // pairs at or below b, read from c without making the step: the step moves a checker from b
  // to n = b - d, so below b only n changes. There are the sources below b, b itself unless it
  // was single, and n if it was empty and is movable; a single is one of those, less n if it
  // was single (it now holds two), plus b if it held two and n if it was empty; a source whose
  // landing was empty and movable stays new (n is now occupied, but only b lands there).
  static uint32_t plain_pairs_after_step(const PlainStacks& c, uint32_t movable, int b,
                                         int d) noexcept {
    const PlainSources& p = c.plain;
    const uint32_t below = (1u << b) - 1, landing = 1u << (b - d);
    const uint32_t held = p.ours & movable & below;
    const uint32_t fresh = landing & movable & ~p.ours;  // n becomes a source
    const uint32_t new_sources = (movable & ~p.ours) << d;
    const int m = count_bits(held) + 1 - static_cast<int>((p.singles >> b) & 1u) + (fresh != 0);
    const int singles = count_bits(held & p.singles & ~landing) +
                        static_cast<int>((c.twos >> b) & 1u) + (fresh != 0);
    const int lands_new = count_bits(held & new_sources) + ((fresh & new_sources) != 0);
    return static_cast<uint32_t>(m * (m + 1) / 2 - singles + lands_new);
  }
  // A double three steps from its end, first steps `firsts`: for each, the pairs after it at
  // or below it (the ordered search's multisets of three steps, counted).
  static uint32_t plain_ordered_triples(const PlainStacks& c, uint32_t firsts, int d) noexcept {
    const uint32_t movable = c.plain.movable(d);
    uint32_t total = 0;
    for (; firsts; firsts &= firsts - 1) {
      total += plain_pairs_after_step(c, movable, std::countr_zero(firsts), d);
    }
    return total;
  }
  // A non-double, larger die first: every larger-die source a times the smaller-die sources
  // after it, less the P2 repeats (a + lo a larger-die source and a smaller-die one, a + lo -
  // hi quiet).
  NARDY_HOT uint32_t plain_larger_first(const PlainSources& p) const noexcept {
    const int hi = dice_[0], lo = dice_[1];
    const uint32_t h0 = p.sources(hi), s_lo = p.sources(lo);
    const uint32_t lands_new = (p.movable(lo) & ~p.ours) << hi;
    const uint32_t repeats = (h0 & s_lo & (quiet_ << hi)) >> lo;
    return static_cast<uint32_t>(count_bits(h0) * count_bits(s_lo) -
                                 count_bits(h0 & s_lo & p.singles) + count_bits(h0 & lands_new) -
                                 count_bits(h0 & repeats));
  }
  // The same, smaller die first: only the checker just moved goes on (every other larger-die
  // step was legal at the start), from y - lo when that is movable for hi, unless P2 (y - lo
  // a larger-die source) or P1 (y one, both landings quiet) made the same move.
  uint32_t plain_smaller_first_sources(const PlainSources& p) const noexcept {
    const int hi = dice_[0], lo = dice_[1];
    const uint32_t h0 = p.sources(hi);
    return p.sources(lo) & (p.movable(hi) << lo) & ~(h0 << lo) &
           ~(h0 & (quiet_ << hi) & (quiet_ << lo));
  }
  uint32_t bear_off_meetings(Step first, int die) const noexcept {
    return first.to < 0 ? ~0u : (1u << die) - 1;
  }
  uint32_t single_checker_repeats(Step first, int die) const noexcept {
    const int hi = dice_[0], lo = dice_[1];
    const uint32_t larger = larger_first_sources_;
    // P1 needs hi from o to land on the board (o >= hi): a checker borne off goes no further.
    // o may be the entering source, where checkers that need not enter first wait (an
    // Acey-deucey reserve: P1 enters with hi and goes on, P2 moves from 24 - lo and enters).
    if (die == lo) {  // first loop: the step from o = first.from + lo would be P2
      const int o = first.from + lo;
      if (o > kBar || o < hi) return 0;
      return ((larger >> o) & (quiet_ >> (o - hi)) & 1u) << o;
    }
    // second loop: the step from first.to goes on (P3), o = first.from; nothing goes on
    // from off the board
    if (first.to < 0) return 0;
    const int o = first.from;
    const uint32_t p2 = larger >> first.to;
    const uint32_t p1 = o < hi ? 0u : (larger >> o) & (quiet_ >> (o - hi)) & (quiet_ >> first.to);
    return ((p2 | p1) & 1u) << first.to;
  }

  // The last die of a move needs no search state, only the resulting position: a policy that
  // declares kLastStep = true supplies for_each_last_step(s, from, die, f), calling f(result, step)
  // for each legal step whose result passes final_ok; otherwise for_each_step stands in.
  template <class F>
  NARDY_HOT void for_each_last_step(const State& s, int from, int die, F&& f) const {
    if constexpr (has_last_step()) {
      policy_.for_each_last_step(s, from, die, f);
    } else {
      policy_.for_each_step(s, from, die, [&](const State& next, Step st) NARDY_LAMBDA {
        if (policy_.final_ok(next)) f(next.pos, st);
      });
    }
  }

  // Two steps of a non-double whose result another pair of steps can also reach: a chain (one
  // checker carried on, or a checker landing where another left: both equal one checker moving
  // hi + lo) or a bear-off (every overshooting die lands on the same "off"). Any other pair is
  // determined by its result, and the commuting skip generates it in one order only; without
  // that skip (an order-dependent rejection happened) every result is checked.
  // A policy with several steps per source may say which pairs can meet (pairs_may_meet()).
  NARDY_OCC bool may_meet(Step a, Step b) const noexcept {
    if constexpr (requires { P::pairs_may_meet(a, b); }) {
      return !skip_commuting_ || P::pairs_may_meet(a, b);
    } else {
      return !skip_commuting_ || !kOneStepPerSource || a.to == b.from || b.to == a.from ||
             a.to < 0 || b.to < 0;
    }
  }

  // The any-order search of doubles visits the steps of a node highest source first. A step
  // from a higher source than the step before it that could have been made first to the same
  // state (all but the policy's unswapped_targets()) leads to a state whose every continuation
  // the search met earlier, in the sibling that made it first: pruning it changes neither the
  // moves nor the order they are first found in. ~0u: nothing to prune.
  static constexpr bool prunes_swaps() {
    return requires(const P& p, const State& s, Step a) { p.unswapped_targets(s, a, 0); };
  }
  static constexpr bool prunes_swap_sources() {
    return requires(const P& p, const State& s, Step a) { p.unswapped_sources(s, a); };
  }
  template <int kDepth>
  NARDY_HOT uint32_t fresh_targets(const State& s, int from) const noexcept {
    if constexpr (kDepth == 0) {
      return ~0u;
    } else {
      const Step prev = path_[kDepth - 1];
      return from > prev.from ? policy_.unswapped_targets(s, prev, from) : ~0u;
    }
  }

  // Doubles. Ordered: same-die steps commute, so each multiset of steps is generated once,
  // sources taken in non-increasing order (a checker that just moved may go on, since it now
  // stands lower). Any order (when a rule checked after every step made order matter): every
  // source each time, transpositions pruned by (position, dice used, policy state).
  template <bool kOrdered, int kDepth, bool kCount = false>
  NARDY_POPCNT_CLONES void doubles(const State& s, int max_from) {
    uint32_t src = policy_.sources(s, die_);
    if constexpr (kOrdered) src &= (2u << max_from) - 1;
    if constexpr (prunes_swap_sources() && !kOrdered && kDepth > 0) {
      // the sources above the last step's whose every target fresh_targets() would prune
      const Step prev = path_[kDepth - 1];
      src &= ((2u << prev.from) - 1) | policy_.unswapped_sources(s, prev);
    }
    if constexpr (kCount && kDepth + 2 == 4) {
      // Two steps from the end. With plain sources the pairs of steps left are counted in one
      // go (plain_ordered_pairs): one pair segment for the node. When they are not, or there is
      // no pair (the moves may stop after three steps), the third step is not made, the
      // fourth's sources come from next_sources() and are counted, and the state after the
      // third is made only when the move may stop there (no four-step play known yet).
      if constexpr (counts_plain_pairs()) {
        PlainSources plain;
        if (policy_.plain_sources(s, plain)) {
          const uint32_t pairs = plain_ordered_pairs(plain, src, die_);
          if (pairs > 0) {
            if (open_segments(play_score(4, 4 * die_))) {
              add_segment(2, die_, pairs, src, kPairSegment);
            }
            return;  // (the moves that stop here or after three steps play fewer dice)
          }
        }
      }
      while (src) {
        const int from = highest_bit(src);
        src ^= 1u << from;
        path_[kDepth] = Step{int8_t(from), int8_t(step_target(from, die_)), 0};
        const uint32_t last = next_sources(s, from, die_, die_) & ((2u << from) - 1);
        if (last && open_segments(play_score(4, 4 * die_))) {
          add_segment(3, die_, count_bits(last), last);
        }
        if (play_score(3, 3 * die_) >= best_score_) {
          policy_.for_each_step(s, from, die_, [&](const State& next, Step) NARDY_LAMBDA {
            record_stop<true>(next, 3, 3 * die_, true);
          });
        }
      }
    } else if constexpr (kDepth + 1 == 4) {
      while (src) {
        const int from = highest_bit(src);
        src ^= 1u << from;
        auto each = [&](const Position& result, Step st) NARDY_LAMBDA {
          record<true>(result, st, 4, 4 * die_, kOrdered);
        };
        if constexpr (prunes_swaps() && !kOrdered) {
          const uint32_t targets = fresh_targets<kDepth>(s, from);
          if (targets != ~0u) {
            policy_.for_each_last_step(s, from, die_, each, targets);
            continue;
          }
        }
        for_each_last_step(s, from, die_, each);
      }
    } else {
      if constexpr (kCount && kOrdered && kDepth + 3 == 4 && counts_plain_stacks()) {
        // Three steps from the end, plain all the way: the node is one segment (a segment's
        // count has 10 bits; a larger node goes step by step).
        PlainStacks stacks;
        if (policy_.plain_stacks(s, 3, stacks)) {
          const uint32_t moves = plain_ordered_triples(stacks, src, die_);
          if (moves > 0 && moves < 1024) {
            if (open_segments(play_score(4, 4 * die_))) {
              add_segment(1, die_, moves, src, kTripleSegment);
            }
            return;  // (the moves that stop earlier play fewer dice)
          }
        }
      }
      if constexpr (kCount && kOrdered && kDepth == 0 && counts_plain_stacks()) {
        // Four steps from the end, plain all the way: a triple segment for each first step,
        // its stacks after the step from the masks (one segment for the node would make the
        // pick count the triples again to find its first step).
        PlainStacks stacks;
        if (src && policy_.plain_stacks(s, 4, stacks)) {
          uint32_t moves[kBar + 1], seconds[kBar + 1], total = 0, most = 0;
          int n = 0;
          for (uint32_t f = src; f; ++n) {
            const int from = highest_bit(f);
            f ^= 1u << from;
            const PlainStacks after = plain_after_step(stacks, from, die_);
            seconds[n] = after.plain.sources(die_) & ((2u << from) - 1);
            moves[n] = plain_ordered_triples(after, seconds[n], die_);
            total += moves[n];
            most = std::max(most, moves[n]);
          }
          if (total > 0 && most < 1024) {
            if (open_segments(play_score(4, 4 * die_))) {
              n = 0;
              for (uint32_t f = src; f; ++n) {
                const int from = highest_bit(f);
                f ^= 1u << from;
                if (moves[n] == 0) continue;
                path_[0] = Step{int8_t(from), int8_t(from - die_), 0};
                add_segment(1, die_, moves[n], seconds[n], kTripleSegment);
              }
            }
            return;
          }
        }
      }
      while (src) {
        const int from = highest_bit(src);
        src ^= 1u << from;
        auto each = [&](const State& next, Step st) NARDY_LAMBDA {
          path_[kDepth] = st;
          if (kOrdered || seen_.insert_inline(next.pos, tag(next, kDepth + 1))) {
            if constexpr (kOrdered && !kCount && kDepth + 2 == 4) {
              ordered_last_node(next, from);
            } else {
              doubles<kOrdered, kDepth + 1, kCount>(next, from);
            }
          }
        };
        if constexpr (prunes_swaps() && !kOrdered) {
          const uint32_t targets = fresh_targets<kDepth>(s, from);
          if (targets != ~0u) {
            policy_.for_each_step(s, from, die_, each, targets);
            continue;
          }
        }
        policy_.for_each_step(s, from, die_, each);
      }
    }
    record_stop<kCount>(s, kDepth, kDepth * die_, kOrdered);
  }

  // The ordered search's node one step from the end of a double, made in its parent's loop
  // rather than called (the call cost about 5% of a double's listing).
  NARDY_HOT void ordered_last_node(const State& s, int max_from) {
    const int die = die_;
    uint32_t src = policy_.sources(s, die) & ((2u << max_from) - 1);
    if constexpr (always_exact()) {
      // Every source has its last step: the ranking is settled once for the node's moves.
      const int score = play_score(4, 4 * die);
      if (src && score >= best_score_) {
        MoveList& out = *out_;
        if (score > best_score_) {
          out.clear();
          best_score_ = score;
        }
        while (src) {
          const int from = highest_bit(src);
          src ^= 1u << from;
          for_each_last_step(s, from, die, [&](const Position& result, Step st) NARDY_LAMBDA {
            out.append(result, path_, st, 4);
          });
        }
      }
    } else {
      while (src) {
        const int from = highest_bit(src);
        src ^= 1u << from;
        for_each_last_step(s, from, die, [&](const Position& result, Step st) NARDY_LAMBDA {
          record(result, st, 4, 4 * die, true);
        });
      }
    }
    record_stop(s, 3, 3 * die, true);
  }

  // Larger die first, then smaller die first. In the second order, a larger-die step by a
  // checker other than the one just moved is skipped when that step was already legal at the
  // start: then (larger, smaller) was explored in the first order and leads to the same place.
  // (Sound while no order-dependent rejection happened; see order_mattered().)
  // (src_hi, src_lo: sources(s, hi) and sources(s, lo), which run() has already.)
  void non_double(const State& s, uint32_t src_hi, uint32_t src_lo) {
    const int hi = dice_[0], lo = dice_[1];
    for (uint32_t src = src_hi; src;) {
      const int from = highest_bit(src);
      src ^= 1u << from;
      policy_.for_each_step(s, from, hi, [&](const State& next, Step st) NARDY_LAMBDA {
        larger_first_sources_ |= 1u << from;
        path_[0] = st;
        last_step(next, lo, hi + lo, 0);
        record_stop(next, 1, hi, kOneStepPerSource);
      });
    }
    for (uint32_t src = smaller_first_candidates(s, src_lo); src;) {
      const int from = highest_bit(src);
      src ^= 1u << from;
      if (skip_commuting_) {
        const int to = step_target(from, lo);
        if (nothing_after(s, from, lo, hi, larger_first_sources_ & ~(to >= 0 ? 1u << to : 0u)))
          continue;
      } else if (nothing_after(s, from, lo, hi, 0)) {
        continue;
      }
      policy_.for_each_step(s, from, lo, [&](const State& next, Step st) NARDY_LAMBDA {
        path_[0] = st;
        uint32_t skip = 0;
        if (skip_commuting_) {
          skip = larger_first_sources_;
          if (st.to >= 0) skip &= ~(1u << st.to);
        }
        last_step(next, hi, hi + lo, skip);
        record_stop(next, 1, lo, kOneStepPerSource);
      });
    }
  }

  // The smaller die's sources worth trying once the larger-die-first loop has run. Where every
  // source has its one step and the sources are plain (see PlainSources), a smaller-die step
  // from a leaves one larger-die source the commuting skip does not cover: the checker just
  // moved, on a - lo. So once a two-dice move is known, the sources whose landing is no
  // larger-die source add nothing, and are not tried (nothing_after() would reject each).
  NARDY_HOT uint32_t smaller_first_candidates(const State& s, uint32_t src_lo) const {
    if constexpr (always_exact() && counts_plain_pairs()) {
      PlainSources plain;
      if (skip_commuting_ && best_score_ >= play_score(2, 0) && policy_.plain_sources(s, plain))
        return src_lo & plain.movable(dice_[0]) << dice_[1];
    }
    return src_lo;
  }

  // True when the step from `from` with `die` can add no move (a policy that counts only):
  // no second step outside `skip` follows it, and a play of this one die is beaten already.
  // It is then not made at all, which is most of what a forced move costs.
  NARDY_HOT bool nothing_after(const State& s, int from, int die, int next_die,
                               uint32_t skip) const {
    if constexpr (counts_last_steps()) {
      return play_score(1, die) < best_score_ &&
             (next_sources(s, from, die, next_die) & ~skip) == 0;
    } else {
      return false;
    }
  }

  // pick()'s non-double: the same search and order, but the first step is made only when its
  // results must be made (a bear-off that may meet another path) or the move may stop after
  // it; the second step's sources come from next_sources() and are counted.
  NARDY_POPCNT_CLONES void count_non_double(const State& s) {
    const int hi = dice_[0], lo = dice_[1];
    quiet_ = policy_.quiet_points(s);
    if constexpr (counts_plain_pairs()) {
      // With plain sources both orders of the two-dice moves are counted from the masks: one
      // segment each. When there is a two-dice move every legal move plays both dice; when
      // there is none, the loops below find the one-die moves.
      PlainSources plain;
      if (policy_.plain_sources(s, plain)) {
        larger_first_sources_ = plain.sources(hi);
        const uint32_t larger_first = plain_larger_first(plain);
        const uint32_t chains = plain_smaller_first_sources(plain);
        if (larger_first + static_cast<uint32_t>(count_bits(chains)) > 0) {
          open_segments(play_score(2, hi + lo));
          first_die_ = hi;
          if (larger_first) {
            add_segment(0, lo, larger_first, larger_first_sources_, kLargerFirstSegment);
          }
          first_die_ = lo;
          if (chains) add_segment(0, hi, count_bits(chains), chains, kChainSegment);
          return;
        }
        larger_first_sources_ = 0;
      }
    }
    first_die_ = hi;
    for (uint32_t src = policy_.sources(s, hi); src;) {
      const int from = highest_bit(src);
      src ^= 1u << from;
      larger_first_sources_ |= 1u << from;  // every source has its step
      count_second_step(s, from, hi, lo, 0);
    }
    first_die_ = lo;
    for (uint32_t src = policy_.sources(s, lo); src;) {
      const int from = highest_bit(src);
      src ^= 1u << from;
      const int to = step_target(from, lo);
      uint32_t skip = larger_first_sources_;
      if (to >= 0) skip &= ~(1u << to);
      count_second_step(s, from, lo, hi, skip);
    }
  }

  NARDY_HOT void count_second_step(const State& s, int from, int die, int next_die, uint32_t skip) {
    const int pips = die + next_die;
    const Step first{int8_t(from), int8_t(step_target(from, die)), 0};
    path_[0] = first;
    uint32_t src = next_sources(s, from, die, next_die) & ~skip;
    if (src && open_segments(play_score(2, pips))) {
      uint32_t meeting = src & bear_off_meetings(first, next_die);
      uint32_t repeated = src & ~meeting & single_checker_repeats(first, next_die);
      if (meeting) {
        policy_.for_each_step(s, from, die, [&](const State& next, Step) NARDY_LAMBDA {
          for (; meeting;) {
            const int b = highest_bit(meeting);
            meeting ^= 1u << b;
            for_each_last_step(next, b, next_die, [&](const Position& result, Step) NARDY_LAMBDA {
              if (!seen_.insert(result, 0)) repeated |= 1u << b;
            });
          }
        });
      }
      src &= ~repeated;
      if (src) add_segment(1, next_die, count_bits(src), src);
    }
    if (play_score(1, die) >= best_score_) {
      policy_.for_each_step(s, from, die, [&](const State& next, Step) NARDY_LAMBDA {
        record_stop<true>(next, 1, die, kOneStepPerSource);
      });
    }
  }

  // Where a step lands: points go down by the die, below 0 is off.
  static constexpr int step_target(int from, int die) noexcept {
    return from - die >= 0 ? from - die : kBearOffTo;
  }

  NARDY_HOT uint32_t next_sources(const State& s, int from, int die, int next_die) const {
    return policy_.next_sources(s, from, die, next_die);
  }

  // The second die of a non-double. Steps from the `skip` sources were found in the other
  // order (their results are recorded already).
  NARDY_HOT void last_step(const State& s, int die, int pips, uint32_t skip) {
    uint32_t src = policy_.sources(s, die) & ~skip;
    const Step first = path_[0];
    if constexpr (always_exact()) {
      // Every source has its last step: the ranking is settled once for the node's moves.
      const int score = play_score(2, pips);
      if (!src || score < best_score_) return;
      MoveList& out = *out_;
      if (score > best_score_) {
        out.clear();
        best_score_ = score;
      }
      // may_meet(first, step from b) as a mask of the sources b (steps go from b to b - die,
      // off below 0): b = first.to, b - die = first.from, or b - die < 0.
      const uint32_t meets = !skip_commuting_ || first.to < 0
                                 ? ~0u
                                 : 1u << first.to | 1u << (first.from + die) | ((1u << die) - 1);
      while (src) {
        const int from = highest_bit(src);
        src ^= 1u << from;
        for_each_last_step(s, from, die, [&](const Position& result, Step st) NARDY_LAMBDA {
          if (meets >> from & 1u) {
            out.insert(result, path_, st, 2);
          } else {
            out.append(result, path_, st, 2);
          }
        });
      }
      return;
    }
    while (src) {
      const int from = highest_bit(src);
      src ^= 1u << from;
      for_each_last_step(s, from, die, [&](const Position& result, Step st) NARDY_LAMBDA {
        record(result, st, 2, pips, !may_meet(first, st));
      });
    }
  }

  // Sources are taken highest first, which fixes the order of the moves a search lists (the
  // order the API shows and seeded players pick from). 31 ^ clz folds into one bsr.
  NARDY_HOT static int highest_bit(uint32_t x) noexcept { return 31 ^ std::countl_zero(x); }

  const P& policy_;
  MoveList* out_ = nullptr;
  MoveList spare_;
  PositionSet seen_;
  Step path_[kMaxSteps]{};
  int dice_[2]{};
  uint32_t larger_first_sources_ = 0;  // sources with a legal larger-die step at the start
  bool skip_commuting_ = true;
  int die_ = 0;
  int best_score_ = 0;  // play_score of the moves in the list
  // count()'s and pick()'s state
  bool counted_ = false;  // the last count() counted segments (else it listed into picked_)
  MoveList picked_;
  State starts_[2]{};  // count()'s start (the first)
  State list_starts_[2]{};  // generate()'s, for policies that count
  std::vector<uint64_t> segments_;  // see segment_count()
  size_t n_segments_ = 0;
  size_t segments_capacity_ = 0;  // segments_.size(), which would cost a division a call
  size_t total_ = 0;
  uint32_t quiet_ = 0;  // the start's quiet_points()
  int first_die_ = 0;  // the die of path_[0] (a bear-off step does not say which it was)
};

// -- turns of several rolls --------------------------------------------------------------
//
// Some variants give one roll a longer turn: a sequence of dice groups played one after the
// other, each group a roll's worth (two dice, or a double's four). A policy that declares
// dice_sequence(d1, d2, turn, out) says which groups a roll makes on the mover's turn number
// `turn` (1 = the first; kLateTurn when unknown). The rules over the whole sequence:
//   - a group is played by the roll rules (as many of its dice as possible, the larger die
//     when only one of a non-double can be played), from the position the previous one left;
//   - the next group is played only when the previous one was played in full: a group not
//     played in full ends the turn (the dice left are lost);
//   - as many dice as possible over the whole sequence: of all ways to play it, the legal
//     moves are those that play the most dice (so a play of a group that leaves the next one
//     unplayable is illegal when another play of it lets the next group be played);
//   - moves are deduplicated by resulting position, the steps kept being the first found.
// Plays of the same dice count ending in different positions are not compared by pips: the
// larger-die rule works inside the group where the turn stops (every sequence a policy gives
// has its non-double, if any, first, where there is one starting position).
// The search goes group by group over the distinct positions each group can leave, so a
// position reached in several ways is continued once. Each group starts a fresh turn state of
// the policy (begin_turn): per-turn limits of the policy apply per group.

inline constexpr int kLateTurn = 1 << 20;  // a turn number past every opening rule

// The index of the first highest score(list[i].result) of a non-empty list of moves (the
// greedy policy's choice).
template <class List, class Score>
size_t first_best(const List& list, Score&& score) {
  size_t best = 0;
  int best_score = score(list[0].result);
  for (size_t i = 1; i < list.size(); ++i)
    if (const int sc = score(list[i].result); sc > best_score) {
      best_score = sc;
      best = i;
    }
  return best;
}

// The mover's turn number, as dice_sequence() reads it, at ply `ply` of a game whose player on
// roll at ply 0 rolled first there, on his turn `first_turn` (kLateTurn: unknown). Each player
// counts his own turns unless the policy says otherwise (turn_at(first_turn, ply)).
template <class P>
int turn_at(const P& policy, int first_turn, int ply) noexcept {
  if (first_turn >= kLateTurn) return kLateTurn;
  if constexpr (requires { policy.turn_at(first_turn, ply); }) {
    return policy.turn_at(first_turn, ply);
  } else {
    return first_turn + ply / 2;
  }
}

// A group of dice played together: a roll's two dice, or a double's four. `missing` (1..3)
// makes a double's group shorter: the dice of a stopped cascade left to the opponent.
struct DiceGroup {
  int d1 = 0;
  int d2 = 0;
  int missing = 0;  // dice short of the roll's own number
  [[nodiscard]] constexpr int size() const noexcept { return (d1 == d2 ? 4 : 2) - missing; }
  [[nodiscard]] constexpr bool partial() const noexcept { return missing != 0; }
};

// A turn number that asks a policy with dice_sequence for the play of dice the opponent's
// stopped cascade left over (`left` of the roll's double, 1..4), played before the player's
// own roll (rules.hpp, stopped_cascade_to_opponent).
inline constexpr int carried_turn(int left) noexcept { return -left; }
inline constexpr int carried_left(int turn) noexcept { return turn < 0 ? -turn : 0; }

// Dice a turn leaves to the opponent: `left` dice of the double `die` (left 0: none).
struct DiceCarry {
  int die = 0;
  int left = 0;
};

// A move of a whole turn: where it leads, its steps in order (kMaxTurnSteps at most) and, for
// variants where the player names dice (the move carries the choice), the named die (0: none);
// `again`: the same player rolls again after it (the turn does not pass).
struct TurnMove {
  Position result;
  uint8_t n_steps = 0;
  uint8_t named = 0;
  bool again = false;
  std::array<Step, kMaxTurnSteps> steps{};
};

// One way to play a roll in a variant where the player chooses dice (a named double): the
// groups played in turn as SequenceEnumerator plays them, the die named (0: none) for the
// moves that reach group `named_from`, and whether a move playing every die of it is followed
// by another roll of the same player. A policy may declare
//   int dice_choices(int d1, int d2, int turn, DiceChoice out[kMaxChoices]) const;
// (instead of dice_sequence): the moves of the roll are then those of every choice, each
// choice played by the sequence rules on its own.
struct DiceChoice {
  DiceGroup groups[kMaxGroups];
  int n = 1;
  int named = 0;
  int named_from = 0;
  bool again = false;
  [[nodiscard]] constexpr int dice() const noexcept {
    int k = 0;
    for (int i = 0; i < n; ++i) k += groups[i].size();
    return k;
  }
};
inline constexpr int kMaxChoices = 6;

// The moves of a turn, deduplicated by (resulting position, named die, again). A cascade can
// list millions (hundreds of MB): a list that grew past kKept moves gives its memory back
// when it is cleared for the next turn. (A set of indices into the moves instead of copies
// of the positions took a quarter less memory but 0.8x the speed on a turn of 1.5 million
// results: a repeated result then costs two cache misses instead of one.)
class TurnList {
 public:
  static constexpr size_t kKept = size_t{1} << 16;

  void clear() noexcept {
    dice_played_ = 0;
    if (moves_.capacity() > kKept) {
      std::vector<TurnMove>().swap(moves_);
      seen_ = PositionSet{};
      return;
    }
    moves_.clear();
    seen_.clear();
  }
  // Adds the move (steps `prefix` then `tail`) unless one with the same result, named die and
  // `again` is listed; false when it was.
  bool add(const Position& result, const Step* prefix, int n_prefix, const Step* tail,
           int n_tail, int named = 0, bool again = false) {
    if (!seen_.insert(result, static_cast<uint32_t>(named) | (again ? 0x100u : 0u))) return false;
    TurnMove& m = moves_.emplace_back();
    m.result = result;
    m.named = static_cast<uint8_t>(named);
    m.again = again;
    m.n_steps = static_cast<uint8_t>(n_prefix + n_tail);
    for (int k = 0; k < n_prefix; ++k) m.steps[k] = prefix[k];
    for (int k = 0; k < n_tail; ++k) m.steps[n_prefix + k] = tail[k];
    return true;
  }
  // A MoveList's moves as they are (a turn of one group).
  void assign(const MoveList& list, int dice_played) {
    clear();
    for (const Move& m : list) add(m.result, m.steps.data(), m.n_steps, nullptr, 0);
    dice_played_ = dice_played;
  }
  [[nodiscard]] size_t size() const noexcept { return moves_.size(); }
  [[nodiscard]] bool empty() const noexcept { return moves_.empty(); }
  [[nodiscard]] const TurnMove& operator[](size_t i) const noexcept { return moves_[i]; }
  [[nodiscard]] const TurnMove* begin() const noexcept { return moves_.data(); }
  [[nodiscard]] const TurnMove* end() const noexcept { return moves_.data() + moves_.size(); }
  // Dice the moves play (0 when the turn passes).
  [[nodiscard]] int dice_played() const noexcept { return dice_played_; }
  void set_dice_played(int n) noexcept { dice_played_ = n; }

 private:
  std::vector<TurnMove> moves_;
  PositionSet seen_;
  int dice_played_ = 0;
};

template <class P>
class SequenceEnumerator {
 public:
  explicit SequenceEnumerator(const P& policy)
      : policy_(policy), base_(policy), counter_(policy) {}

  // Every legal move of the turn the roll gives on turn number `turn`; returns the dice played.
  int generate(const Position& pos, int d1, int d2, int turn, TurnList& out) {
    if constexpr (requires(DiceChoice* c) { policy_.dice_choices(d1, d2, turn, c); }) {
      DiceChoice choices[kMaxChoices];
      const int n = policy_.dice_choices(d1, d2, turn, choices);
      if (n == 1 && choices[0].named == 0 && !choices[0].again)
        return generate_groups(pos, choices[0].groups, choices[0].n, out);
      out.clear();
      // Choices that begin with the same groups (a 1-2 before each named double) search them
      // once; each choice goes on from the positions they left.
      const int shared = shared_groups(choices, n);
      start_search(pos);
      if (shared > 0) {
        choice_.clear();
        const int prefix = search_levels(choices[0].groups, 0, shared, choices[0].n, choice_);
        if (level_lo_ == level_hi_) {
          // No play of the shared groups in full: their plays are every choice's moves, and
          // they name nothing (shared_groups() ends the shared part where naming begins).
          for (const TurnMove& m : choice_) out.add(m.result, m.steps.data(), m.n_steps, nullptr, 0);
          out.set_dice_played(prefix);
          return prefix;
        }
      }
      const size_t lo = level_lo_, hi = level_hi_;
      const int before = level_before_;
      int best = 0;
      for (int k = 0; k < n; ++k) {
        const DiceChoice& c = choices[k];
        nodes_.erase(nodes_.begin() + static_cast<std::ptrdiff_t>(hi), nodes_.end());
        level_lo_ = lo;
        level_hi_ = hi;
        level_before_ = before;
        choice_.clear();
        const int played =
            search_levels(c.groups, shared, c.n, c.n, choice_, c.named, c.named_from);
        const bool again = c.again && played == c.dice();
        for (const TurnMove& m : choice_)
          out.add(m.result, m.steps.data(), m.n_steps, nullptr, 0, m.named, again);
        if (played > best) best = played;
      }
      out.set_dice_played(best);
      return best;
    } else {
      DiceGroup groups[kMaxGroups];
      const int n = policy_.dice_sequence(d1, d2, turn, groups);
      return generate_groups(pos, groups, n, out);
    }
  }

  // One move of the turn the roll gives on turn number `turn`, chosen at random without
  // listing the turn (pick_groups); for policies with dice_sequence. False when it passes.
  template <class Draw>
  bool pick(const Position& pos, int d1, int d2, int turn, Draw&& draw, Position& result) {
    DiceGroup groups[kMaxGroups];
    const int n = policy_.dice_sequence(d1, d2, turn, groups);
    return pick_groups(pos, groups, n, draw, result);
  }

  // The same for policies with dice_choices (a named double): one choice uniformly at random
  // (draw(n) over the policy's choices, skipped when there is one), then its groups as
  // pick_groups() chooses them. Returns 0 when the roll passes, 2 for a move after which the
  // same player rolls again (every die of an `again` choice played), else 1.
  template <class Draw>
  int pick_choice(const Position& pos, int d1, int d2, int turn, Draw&& draw, Position& result) {
    DiceChoice choices[kMaxChoices];
    const int n = policy_.dice_choices(d1, d2, turn, choices);
    const DiceChoice& c = choices[n == 1 ? 0 : draw(static_cast<size_t>(n))];
    if (c.n == 2) {
      // Two groups (a 1-2, then the named double): the first group counted, not listed. When
      // the try pick_groups() makes first leads to a position that plays the second group in
      // full, the turn plays every die and that try is its choice: the same draws and move
      // as pick_groups(), which is asked only otherwise (its draws made again from here).
      const DiceGroup g0 = c.groups[0], g1 = c.groups[1];
      const size_t n0 = base_.count(pos, g0.d1, g0.d2);
      picked_dice_ = base_.dice_played();
      if (n0 == 0) return 0;
      if (picked_dice_ < g0.size()) {  // the turn ends in the first group
        result = base_.counted_move(draw(n0));
        return 1;
      }
      const std::remove_reference_t<Draw> before = draw;
      const Position first = base_.counted_move(draw(n0));
      const size_t n1 = base_.count(first, g1.d1, g1.d2);  // (the count says how many dice)
      if (base_.dice_played() == g1.size()) {
        result = base_.counted_move(draw(n1));
        picked_dice_ = c.dice();
        return c.again ? 2 : 1;
      }
      draw = before;
    }
    if (!pick_groups(pos, c.groups, c.n, draw, result)) return 0;
    return c.again && picked_dice_ == c.dice() ? 2 : 1;
  }

  // A random move of the turn of groups[0..n), for random rollouts, where listing a long turn
  // (millions of results early in a Gul bara game) would cost more than the game. A turn of
  // one group is generate()'s list at index draw(n), made alone (Enumerator::pick): uniform
  // over the distinct results, as in every variant. A longer turn is chosen group by group:
  // of the distinct positions a group played in full leaves, those from which the rest of the
  // turn can still play the most dice the whole turn allows, one uniformly at random; then
  // the next group from there; the group where the turn ends, uniformly among its distinct
  // results. (Not uniform over the turn's results: a result several intermediate positions
  // lead to is likelier.) A uniform choice among those that qualify is made by trying a
  // uniform child, up to kTries times, and then drawing among all the children that qualify;
  // draw(n) returns an index below n and is called once per try or choice.
  template <class Draw>
  bool pick_groups(const Position& pos, const DiceGroup* groups, int n, Draw&& draw,
                   Position& result) {
    if (n == 1) return pick_group(pos, groups[0], draw, result, picked_dice_);
    use_groups(groups, n);
    Position p = pos;
    int k0 = 0, most = 0;
    // Most turns play every die. The first group's tries are made before anything says how
    // many the turn can play: a try whose result plays the rest in full proves that every die
    // can be played, and is the one the choice below would take (its earlier tries fail the
    // same test). Otherwise the draws are taken back and the turn goes the long way.
    {
      const std::remove_reference_t<Draw> before = draw;
      Position c;
      if (try_full(pos, draw, c)) {
        most = rest_[0];
        p = c;
        k0 = 1;
      } else {
        draw = before;
        most = reach(pos, 0);
      }
    }
    picked_dice_ = most;
    bool moved = most > 0;
    for (int k = k0, left = most - rest_[0] + rest_[k0]; moved; ++k) {
      const DiceGroup g = groups[k];
      if (left <= g.size()) {  // the turn ends with this group: its move made alone
        Position chosen;
        int played = 0;
        pick_group(p, g, draw, chosen, played);
        p = chosen;
        break;
      }
      // played in full, with more to play from some of its results
      const int need = left - g.size();
      left = need;
      bool found = false;
      const GroupDraws results = group_draws(p, k);
      for (int t = 0; t < kTries && !found; ++t) {
        const Position c = results.at(draw(results.size));
        if (still_plays(c, k + 1, need)) {
          p = c;
          found = true;
        }
      }
      if (!found) {
        const MoveList& list = group_list(p, k);
        qualified_.clear();
        for (uint32_t i = 0; i < list.size(); ++i)
          if (reach(list[i].result, k + 1, need) == need) qualified_.push_back(i);
        p = list[qualified_[draw(qualified_.size())]].result;
      }
    }
    // (a large search's table is given back rather than kept for the next turn)
    if (memo_size_ > kKeptMemo) memo_ = Memo{};
    if (moved) result = p;
    return moved;
  }

  // The greedy rollout policy's move of the turn the roll gives on turn number `turn`, for
  // policies with dice_sequence, chosen without listing a long turn: a turn of one group is
  // its highest score(result) move (the first of the best in generate()'s order); a longer
  // turn is chosen group by group, each time the highest-scoring of the positions the group
  // played in full leaves from which the rest of the turn can still play the most dice (the
  // first of the best in the group's move order), and in the group where the turn ends its
  // highest-scoring move. False when the turn passes.
  template <class Score>
  bool pick_best(const Position& pos, int d1, int d2, int turn, Score&& score,
                 Position& result) {
    DiceGroup groups[kMaxGroups];
    const int n = policy_.dice_sequence(d1, d2, turn, groups);
    use_groups(groups, n);
    const int most = n == 1 ? groups[0].size() : reach(pos, 0);
    Position p = pos;
    bool moved = false;
    for (int k = 0, left = most; left > 0; ++k) {
      const MoveList& list = group_list(p, k);
      if (list.empty()) break;  // (a turn of one group that passes)
      moved = true;
      const DiceGroup g = groups[k];
      if (left <= g.size()) {  // the turn ends with this group
        p = list[first_best(list, score)].result;
        break;
      }
      // the qualifying result of the best score: the scores in order, best first (ties in
      // list order), until one can still play the most dice
      const int need = left - g.size();
      left = need;
      ranked_.clear();
      for (uint32_t i = 0; i < list.size(); ++i)
        ranked_.push_back({-score(list[i].result), i});
      std::sort(ranked_.begin(), ranked_.end());
      for (const auto& [negated, i] : ranked_) {
        const Position& c = list[i].result;
        if (still_plays(c, k + 1, need)) {
          p = c;
          break;
        }
      }
    }
    end_groups();
    picked_dice_ = !moved ? 0 : n == 1 ? listed_played_[0] : most;
    if (moved) result = p;
    return moved;
  }

  // Dice the last pick_groups(), pick() or pick_best() move played.
  [[nodiscard]] int picked_dice() const noexcept { return picked_dice_; }

  // How many dice the turn the roll gives on turn number `turn` plays (0: it passes), found
  // without listing the turn where the policy has dice_sequence.
  int most_dice(const Position& pos, int d1, int d2, int turn) {
    if constexpr (requires(DiceGroup* g) { policy_.dice_sequence(d1, d2, turn, g); }) {
      begin_groups(d1, d2, turn);
      if (n_groups_ == 1) return group_most(pos, groups_[0]);
      const int most = reach(pos, 0);
      end_groups();
      return most;
    } else {
      return generate(pos, d1, d2, turn, scratch_);
    }
  }

  // How many dice of groups[0..n) (n <= kMaxGroups, played in order) a move from pos plays,
  // without listing the moves; `groups` must stay valid through the call.
  int most_dice_groups(const Position& pos, const DiceGroup* groups, int n) {
    if (n == 1) return group_most(pos, groups[0]);
    use_groups(groups, n);
    const int most = reach(pos, 0);
    end_groups();
    return most;
  }

  // A legal move of that turn leading to `target` (the unswapped result) and naming `named`
  // (-1: any), in `out`; false when none leads there. Where the policy has dice_sequence the
  // turn is not listed: the plays are searched group by group towards the target, each group's
  // results kept only when the rest of the turn can still play the most dice from them and,
  // where the policy can tell (may_lead_to), still reach the target. Users play a cascade of
  // millions of moves this way without listing it.
  bool find(const Position& pos, int d1, int d2, int turn, const Position& target, int named,
            TurnMove& out) {
    if constexpr (requires(DiceGroup* g) { policy_.dice_sequence(d1, d2, turn, g); }) {
      if (named > 0) return false;
      begin_groups(d1, d2, turn);
      const int most = n_groups_ == 1 ? group_most(pos, groups_[0]) : reach(pos, 0);
      const bool found = most > 0 && may_lead_to(pos, target) && find_from(pos, 0, most, target);
      if (found) {
        out = TurnMove{};
        out.result = target;
        int n = 0;
        for (int k = 0; k < found_end_; ++k)
          for (int i = 0; i < found_[k].n_steps; ++i) out.steps[n++] = found_[k].steps[i];
        out.n_steps = static_cast<uint8_t>(n);
      }
      end_groups();
      return found;
    } else {
      generate(pos, d1, d2, turn, scratch_);
      for (const TurnMove& m : scratch_)
        if (m.result == target && (named < 0 || m.named == named)) {
          out = m;
          return true;
        }
      return false;
    }
  }

  // The same for a given sequence of groups (n <= kMaxGroups); `named` is stored in each move
  // that reaches group `named_from` (the others name nothing).
  int generate_groups(const Position& pos, const DiceGroup* groups, int n, TurnList& out,
                      int named = 0, int named_from = 0) {
    out.clear();
    start_search(pos);
    return search_levels(groups, 0, n, n, out, named, named_from);
  }

 private:
  void start_search(const Position& pos) {
    nodes_.clear();
    nodes_.push_back(Node{pos, -1, 0, {}});
    level_lo_ = 0;
    level_hi_ = 1;
    level_before_ = 0;
  }

  // Groups [k0, stop) of a sequence of n, from the positions that played the groups before k0
  // in full (nodes_[level_lo_, level_hi_), level_before_ dice): the moves that stop in them
  // go to `out` (the most dice only; returns that number), the positions that play group
  // stop - 1 in full are left as the next level. A move ends only in the last group or where
  // no position of its level plays the group in full.
  int search_levels(const DiceGroup* groups, int k0, int stop, int n, TurnList& out,
                    int named = 0, int named_from = 0) {
    int best = 0, before = level_before_;
    size_t lo = level_lo_, hi = level_hi_;
    for (int k = k0; k < stop && lo < hi; ++k) {
      const DiceGroup g = groups[k];
      const bool last = k + 1 == n;
      next_.clear();
      bool full_seen = false;  // a play of the whole group: partial plays here are not legal
      for (size_t i = lo; i < hi; ++i) {
        const Position p = nodes_[i].pos;  // (nodes_ grows below)
        const int played = group_moves(p, g, list_);
        if (played == g.size() && !last) {
          full_seen = true;
          for (const Move& m : list_)
            if (next_.insert(m.result, 0))
              nodes_.push_back(Node{m.result, static_cast<int32_t>(i), m.n_steps, m.steps});
          continue;
        }
        if (full_seen && !last) continue;
        const int score = before + played;
        if (score == 0 || score < best) continue;
        if (score > best) {
          out.clear();
          best = score;
        }
        const int n_prefix = path_to(i);
        const int nm = k >= named_from ? named : 0;
        if (played == 0) {
          out.add(p, path_.data(), n_prefix, nullptr, 0, nm);
        } else {
          for (const Move& m : list_)
            out.add(m.result, path_.data(), n_prefix, m.steps.data(), m.n_steps, nm);
        }
      }
      lo = hi;
      hi = nodes_.size();
      before += g.size();
    }
    level_lo_ = lo;
    level_hi_ = hi;
    level_before_ = before;
    out.set_dice_played(best);
    // (a large turn's search gives its memory back rather than keeping it for the next)
    if (nodes_.size() > TurnList::kKept) {
      std::vector<Node>().swap(nodes_);
      next_ = PositionSet{};
    }
    return best;
  }

  // How many leading groups every choice shares and plays before its last group and before
  // the group from which it names a die (0: none to share).
  static int shared_groups(const DiceChoice* choices, int n) noexcept {
    if (n < 2) return 0;
    int shared = kMaxGroups;
    for (int k = 0; k < n; ++k) {
      const DiceChoice& c = choices[k];
      shared = std::min(shared, c.n - 1);
      if (c.named) shared = std::min(shared, c.named_from);
      for (int j = 0; j < shared; ++j)
        if (c.groups[j].d1 != choices[0].groups[j].d1 || c.groups[j].d2 != choices[0].groups[j].d2)
          shared = j;
    }
    return std::max(shared, 0);
  }

 private:
  struct Node {
    Position pos;
    int32_t parent;
    uint8_t n_steps;
    std::array<Step, kMaxSteps> steps;  // the group's steps that led here
  };

  static constexpr int kTries = 4;
  static constexpr size_t kKeptMemo = size_t{1} << 16;

  // The most dice groups k.. can play from p (groups before k played in full) when that is
  // at least `floor`; otherwise some number below `floor` that is at least that many: the
  // search gives up on a position once the policy's bound, or the results it searched, show
  // that nothing from it reaches `floor`. Most questions are whether a result still plays
  // what the turn needs, and the results that cannot are the bulk of a cascade's search.
  // Memoised by (position, k), the answers below a floor marked as bounds (kBoundFlag); a
  // search stops as soon as one way plays every die left, or as many as the bound allows.
  int reach(const Position& p, int k, int floor = 0) {
    if (k == n_groups_) return 0;
    if (const uint8_t* v = memo_.find(p, static_cast<uint32_t>(k))) {
      if ((*v & kBoundFlag) == 0) return *v;
      if ((*v & ~kBoundFlag) < floor) return *v & ~kBoundFlag;
    }
    const DiceGroup g = groups_[k];
    if (k + 1 == n_groups_) {  // the last group: how far it goes, not its moves
      const int r = group_most(p, g);
      remember(p, k, r, false);
      return r;
    }
    int most = rest_[k];
    bool bounded = false;
    if (floor > 0) {
      bounded = true;
      most = std::min(most, dice_bound(p, k));
      if (most < floor) {
        remember(p, k, most, true);
        return most;
      }
    }
    const MoveList& list = group_list(p, k);
    int r = listed_played_[k];
    if (r == g.size()) {
      // best: the most a result plays, among those that reach what they were asked
      // (at_least); shortfall: the largest bound of those that did not
      const int need = std::max(floor - g.size(), 0);
      int best = -1, shortfall = 0, later_most = most - g.size();
      for (const Move& m : list) {
        const int at_least = std::max(need, best + 1);
        const int v = reach(m.result, k + 1, at_least);
        if (v >= at_least) {
          best = v;
        } else {
          shortfall = std::max(shortfall, v);
        }
        if (best == later_most) break;
        if (!bounded) {  // asked once the first result falls short of all
          bounded = true;
          later_most = std::min(later_most, dice_bound(p, k) - g.size());
          if (best == later_most) break;
        }
      }
      if (best < need) {
        remember(p, k, r + shortfall, true);
        return r + shortfall;
      }
      r += best;
    }
    remember(p, k, r, false);
    return r;
  }

  void remember(const Position& p, int k, int dice, bool bound) {
    const auto [slot, fresh] = memo_.insert(p, static_cast<uint32_t>(k));
    *slot = static_cast<uint8_t>(dice | (bound ? kBoundFlag : 0));
    if (fresh) ++memo_size_;
  }

  // The turn's groups for most_dice() and find(), and the search state they share with
  // pick_groups().
  void begin_groups(int d1, int d2, int turn) {
    if constexpr (requires(DiceGroup* g) { policy_.dice_sequence(d1, d2, turn, g); }) {
      use_groups(own_groups_.data(),
                 policy_.dice_sequence(d1, d2, turn, own_groups_.data()));
    }
  }
  // A search of groups[0..n) begins: the dice each suffix holds, an empty memo, no lists.
  void use_groups(const DiceGroup* groups, int n) {
    groups_ = groups;
    n_groups_ = n;
    rest_[n] = 0;
    partial_end_ = 0;
    for (int k = n - 1; k >= 0; --k) {
      rest_[k] = rest_[k + 1] + groups[k].size();
      if (groups[k].partial() && partial_end_ == 0) partial_end_ = k + 1;
    }
    memo_.clear();
    memo_size_ = 0;
    listed_.fill(false);
  }
  void end_groups() {
    if (memo_size_ > kKeptMemo) memo_ = Memo{};
    listed_.fill(false);  // own_groups_ is refilled by the next call
  }

  // find()'s search: a play of groups k.. from p of `left` dice (the most they can play) that
  // ends at `target`; each group's move is written to found_[k]. Results from which it failed
  // are remembered in the memo under their level + kTried.
  bool find_from(const Position& p, int k, int left, const Position& target) {
    const DiceGroup g = groups_[k];
    const MoveList& list = group_list(p, k);
    if (left <= g.size()) {  // the turn ends in this group: its plays are the turn's last part
      for (const Move& m : list)
        if (m.result == target) {
          found_[k] = m;
          found_end_ = k + 1;
          return true;
        }
      return false;
    }
    const int need = left - g.size();
    for (const Move& m : list) {
      const Position& c = m.result;
      const uint32_t tried = kTried + static_cast<uint32_t>(k + 1);
      if (!may_lead_to(c, target) || memo_.find(c, tried) != nullptr ||
          reach(c, k + 1, need) != need)
        continue;
      if (find_from(c, k + 1, need, target)) {
        found_[k] = m;
        return true;
      }
      memo_.insert(c, tried, 1);
      ++memo_size_;
    }
    return false;
  }

  bool may_lead_to(const Position& from, const Position& to) const noexcept {
    if constexpr (requires { policy_.may_lead_to(from, to); }) {
      return policy_.may_lead_to(from, to);
    } else {
      return true;
    }
  }

  // Group g's moves from p (the enumerator's list, or partial_moves() for a short double);
  // returns the dice they play.
  int group_moves(const Position& p, const DiceGroup& g, MoveList& list) {
    if constexpr (kShortGroups) {
      if (g.partial()) return partial_moves(p, g.d1, g.size(), list);
    }
    base_.generate(p, g.d1, g.d2, list);
    return base_.dice_played();
  }

  // The most dice group g plays from p.
  int group_most(const Position& p, const DiceGroup& g) {
    if constexpr (kShortGroups) {
      if (g.partial()) return partial_moves(p, g.d1, g.size(), partial_list_);
    }
    return base_.most_dice(p, g.d1, g.d2, g.size());
  }

  // One move of group g from p, uniformly among its distinct results (Enumerator::pick);
  // `played`: the dice it plays. False when the group passes.
  template <class Draw>
  bool pick_group(const Position& p, const DiceGroup& g, Draw& draw, Position& out, int& played) {
    if constexpr (kShortGroups) {
      if (g.partial()) {
        played = partial_moves(p, g.d1, g.size(), partial_list_);
        if (partial_list_.empty()) return false;
        out = partial_list_[draw(partial_list_.size())].result;
        return true;
      }
    }
    const bool moved = base_.pick(p, g.d1, g.d2, draw, out);
    played = moved ? base_.dice_played() : 0;
    return moved;
  }

  // Groups shorter than a roll's (DiceGroup::missing) come only from a policy's carried plays:
  // the others' searches leave them out.
  static constexpr bool kShortGroups = requires(const P& p) { p.carry(1, 1, 1, 1); };

  // The moves of `n` (1..3) steps of the die d from pos, the most that can be played, by
  // resulting position: a plain search over the policy's steps (the enumerator's searches
  // are for a double's four; a short one is rare, the leftover of a stopped cascade). Of the
  // policy's start states the first that plays the most dice gives the moves, as in
  // Enumerator::generate. Returns the dice played.
  int partial_moves(const Position& pos, int d, int n, MoveList& out) {
    typename P::State starts[2];
    const int n_starts = policy_.begin_turn(pos, d, d, starts);
    out.clear();
    int best = 0;
    for (int k = 0; k < n_starts; ++k) {
      MoveList& list = k == 0 ? out : partial_spare_;
      if (k > 0) list.clear();
      int found = 0;
      partial_search(starts[k], d, 0, n, found, list);
      if (k > 0 && found > best) out.swap(list);
      best = std::max(best, found);
    }
    return best;
  }

  void partial_search(const typename P::State& s, int d, int depth, int n, int& best,
                      MoveList& out) {
    if (depth > 0 && depth >= best && policy_.final_ok(s)) {
      if (depth > best) {
        out.clear();
        best = depth;
      }
      out.insert(s.pos, partial_path_.data(), partial_path_[depth - 1], depth);
    }
    if (depth == n) return;
    for (uint32_t src = policy_.sources(s, d); src;) {
      const int from = 31 ^ std::countl_zero(src);
      src ^= 1u << from;
      policy_.for_each_step(s, from, d, [&](const auto& next, Step st) {
        partial_path_[depth] = st;
        partial_search(next, d, depth + 1, n, best, out);
      });
    }
  }

  // Whether groups k.. can all be played in full from p: the policy's quick witness
  // (plays_in_full) where it has one, else the search (which asks the policy's bound first).
  bool plays_rest(const Position& p, int k) {
    if (k == n_groups_) return true;
    if constexpr (requires(const DiceGroup* g) { policy_.plays_in_full(p, g, 1); }) {
      if (k >= partial_end_ && policy_.plays_in_full(p, groups_ + k, n_groups_ - k)) return true;
    }
    return reach(p, k, rest_[k]) == rest_[k];
  }

  // Whether groups k.. played from p take `need` dice, the most the turn still allows.
  bool still_plays(const Position& p, int k, int need) {
    return need == rest_[k] ? plays_rest(p, k) : reach(p, k, need) == need;
  }

  // At most how many dice groups k.. can play from p: the policy's dice_bound() where it has
  // one.
  int dice_bound(const Position& p, int k) const {
    if constexpr (requires(const DiceGroup* g) { policy_.dice_bound(p, g, 1); }) {
      if (k < partial_end_) return rest_[k];
      return policy_.dice_bound(p, groups_ + k, n_groups_ - k);
    } else {
      return rest_[k];
    }
  }

  // Group k's moves from p (what reach() searches; the pick draws from them where they are
  // listed already, see group_draws()), listed once: the list stays until another position's
  // group k is listed, and reach() of its results lists only the later groups, so the pick
  // that follows a search from p finds it again.
  const MoveList& group_list(const Position& p, int k) {
    MoveList& list = group_lists_[k];
    if (!listed_[k] || listed_pos_[k] != p) {
      listed_played_[k] = group_moves(p, groups_[k], list);
      listed_[k] = true;
      listed_pos_[k] = p;
    }
    return list;
  }

  // The results of group k from p that pick_groups() draws from, in generate()'s order: the
  // list where group_list() holds it already, else counted (counter_) and each drawn result
  // made alone, since most picks take one of the first few they draw.
  struct GroupDraws {
    const MoveList* list;  // nullptr: counted
    const Enumerator<P>* counter;
    size_t size;
    int played;
    Position at(size_t i) const { return list ? (*list)[i].result : counter->counted_move(i); }
  };
  GroupDraws group_draws(const Position& p, int k) {
    if ((listed_[k] && listed_pos_[k] == p) || (kShortGroups && groups_[k].partial())) {
      const MoveList& list = group_list(p, k);
      return {&list, nullptr, list.size(), listed_played_[k]};
    }
    const DiceGroup g = groups_[k];
    const size_t n = counter_.count(p, g.d1, g.d2);
    return {nullptr, &counter_, n, counter_.dice_played()};
  }

  // pick_groups()'s first group when the turn may play every die: up to kTries results of
  // the group played in full, drawn as the pick draws them; true, with the result, for the
  // first from which the rest of the turn plays in full.
  template <class Draw>
  bool try_full(const Position& pos, Draw& draw, Position& out) {
    const GroupDraws results = group_draws(pos, 0);
    if (results.played != groups_[0].size()) return false;
    for (int t = 0; t < kTries; ++t) {
      const Position c = results.at(draw(results.size));
      if (plays_rest(c, 1)) {
        out = c;
        return true;
      }
    }
    return false;
  }

  // Writes the steps from the start to node i into path_; returns their number.
  int path_to(size_t i) {
    int n = 0;
    for (int32_t j = static_cast<int32_t>(i); j > 0; j = nodes_[j].parent) n += nodes_[j].n_steps;
    int at = n;
    for (int32_t j = static_cast<int32_t>(i); j > 0; j = nodes_[j].parent) {
      at -= nodes_[j].n_steps;
      for (int k = 0; k < nodes_[j].n_steps; ++k) path_[at + k] = nodes_[j].steps[k];
    }
    return n;
  }

  const P& policy_;
  Enumerator<P> base_;
  Enumerator<P> counter_;  // group_draws()'s counts, kept apart from the searches between draws
  MoveList list_;
  PositionSet next_;
  std::vector<Node> nodes_;
  std::array<Step, kMaxTurnSteps> path_{};
  TurnList choice_;  // one choice's moves (dice_choices)
  // the level search_levels() stopped at: its positions nodes_[level_lo_, level_hi_) and the
  // dice played before it
  size_t level_lo_ = 0, level_hi_ = 0;
  int level_before_ = 0;
  // pick_groups()'s state
  using Memo = StampedPositionTable<uint32_t, uint8_t>;
  Memo memo_;
  size_t memo_size_ = 0;
  const DiceGroup* groups_ = nullptr;
  int n_groups_ = 0;
  int picked_dice_ = 0;         // dice the last pick played
  int partial_end_ = 0;  // groups before it may be short (partial()): the policy's bounds skip them
  MoveList partial_list_, partial_spare_;
  std::array<Step, kMaxSteps> partial_path_{};
  int rest_[kMaxGroups + 1]{};  // dice of groups k..
  // group_list()'s lists: group k's moves from listed_pos_[k] when listed_[k]
  std::array<MoveList, kMaxGroups> group_lists_;
  std::array<Position, kMaxGroups> listed_pos_{};
  std::array<int, kMaxGroups> listed_played_{};
  std::array<bool, kMaxGroups> listed_{};
  std::vector<uint32_t> qualified_;
  std::vector<std::pair<int, uint32_t>> ranked_;  // pick_best()'s (-score, index) of a group
  // most_dice() and find()'s state
  static constexpr uint32_t kTried = 64;  // memo tag offset of find()'s failed results
  static constexpr uint8_t kBoundFlag = 0x80;  // a memo value that is a bound (see reach())
  std::array<DiceGroup, kMaxGroups> own_groups_{};
  std::array<Move, kMaxGroups> found_{};
  int found_end_ = 0;
  TurnList scratch_;
};

template <class P>
concept HasDiceSequence = requires(const P& p, DiceGroup* g) {
  { p.dice_sequence(1, 1, 1, g) } -> std::convertible_to<int>;
};

template <class P>
concept HasDiceChoices = requires(const P& p, DiceChoice* c) {
  { p.dice_choices(1, 1, 1, c) } -> std::convertible_to<int>;
};

}  // namespace nardy
