// Complete moves and the list that collects them, deduplicated by resulting position.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "nardy/position.hpp"

namespace nardy {

inline constexpr int kEnterFrom = kBar;  // Step::from of a checker entering the board
inline constexpr int kBearOffTo = -1;    // Step::to of a checker borne off

// One checker moved by one die, in the mover's coordinates.
struct Step {
  int8_t from = 0;  // 0..23, or kEnterFrom
  int8_t to = 0;    // 0..23, or kBearOffTo
  uint8_t hit = 0;  // 1 when an opponent blot was sent to the bar
  friend constexpr bool operator==(const Step&, const Step&) = default;
};

inline constexpr int kMaxSteps = 4;
// A turn of several rolls (enumerator.hpp's SequenceEnumerator): at most kMaxGroups groups of
// dice, so at most kMaxTurnSteps steps.
inline constexpr int kMaxGroups = 6;
inline constexpr int kMaxTurnSteps = 4 * kMaxGroups;

// A state whose sources follow the plain rule for every die, there and one step away: the
// occupied points at or above the die whose target is not blocked (no bearing off; slot 24 is
// such a point for checkers that may enter without having to, an Acey-deucey reserve).
// Policies say when that holds (plain_sources()); the enumerator can then count moves from the
// masks alone.
struct PlainSources {
  uint32_t ours = 0;     // occupied points
  uint32_t singles = 0;  // points holding exactly one checker
  uint32_t blocked = 0;  // points no checker may land on
  [[nodiscard]] constexpr uint32_t movable(int die) const noexcept {
    return ~((1u << die) - 1) & ~(blocked << die) & ((2u << 24) - 1);
  }
  [[nodiscard]] constexpr uint32_t sources(int die) const noexcept { return ours & movable(die); }
};

// PlainSources with the points holding exactly two and exactly three checkers: enough to
// follow the sources through several steps (a step leaves a point of two single, one of
// three with two).
struct PlainStacks {
  PlainSources plain;
  uint32_t twos = 0;
  uint32_t threes = 0;
};

// A complete move: where it leads (mover's perspective, not swapped) and one canonical list of
// the steps that get there (the first sequence the enumerator found).
struct Move {
  Position result;
  std::array<Step, kMaxSteps> steps{};
  uint8_t n_steps = 0;
};

// An insertion-ordered set of moves keyed by resulting position. The hash table is stamped
// with a generation number so that clear() is O(1): enumerating millions of rolls must not pay
// a memset per roll.
class MoveList {
 public:
  MoveList() {
    table_.assign(256, Slot{});
    moves_.resize(64);
  }

  void clear() noexcept {
    size_ = 0;
    if (++generation_ == 0) {  // wrapped: old stamps could alias the new generation
      for (Slot& s : table_) s = Slot{};
      generation_ = 1;
    }
  }

  // Adds the move unless a move with the same result is already present. The steps are the
  // first n_steps - 1 of `path` (kMaxSteps are read) followed by `last`: the step just made is
  // passed in a register, because storing it into the path byte by byte and reading the path
  // back whole would stall on store forwarding once per move. The sizes it checks are cached
  // in plain members: the vectors' own size() would cost a division by sizeof(Move) per call.
  bool insert(const Position& result, const Step* path, Step last, int n_steps) {
    return insert_inline(result, path, last, n_steps);
  }
  // insert(), forced inline: for the call site where most results of a search arrive. GCC
  // leaves insert() a call there (register saves and reloads cost a third of an insertion), and
  // inlining it at every call site makes the code about 30% larger for little more.
  NARDY_HOT bool insert_inline(const Position& result, const Step* path, Step last, int n_steps) {
    if (size_ >= grow_at_) grow();
    const uint64_t h = result.hash();
    const Slot* table = table_.data();
    const Move* moves = moves_.data();
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = table[i];
      if (s.generation != generation_) {
        table_[i] = Slot{generation_, static_cast<uint32_t>(size_)};
        push(result, path, last, n_steps);
        return true;
      }
      if (moves[s.index].result == result) return false;
    }
  }

  // Adds a move the caller knows to be new. It does not enter the hash table, so it must also
  // never equal a move inserted later.
  NARDY_HOT void append(const Position& result, const Step* path, Step last, int n_steps) {
    if (size_ >= grow_at_) grow();
    push(result, path, last, n_steps);
  }

  [[nodiscard]] size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] const Move& operator[](size_t i) const noexcept { return moves_[i]; }
  [[nodiscard]] const Move* begin() const noexcept { return moves_.data(); }
  [[nodiscard]] const Move* end() const noexcept { return moves_.data() + size_; }
  void swap(MoveList& other) noexcept {
    moves_.swap(other.moves_);
    table_.swap(other.table_);
    std::swap(size_, other.size_);
    std::swap(mask_, other.mask_);
    std::swap(grow_at_, other.grow_at_);
    std::swap(generation_, other.generation_);
  }

 private:
  struct Slot {
    uint32_t generation = 0;
    uint32_t index = 0;
  };

  NARDY_HOT void push(const Position& result, const Step* path, Step last, int n_steps) {
    Move& m = moves_[size_++];
    m.result = result;
    m.n_steps = static_cast<uint8_t>(n_steps);
    std::memcpy(m.steps.data(), path, sizeof(Step) * kMaxSteps);
    m.steps[n_steps - 1] = last;
  }

  // Keeps the table at most half full and room for one more move.
  void grow() {
    if (table_.size() < 2 * (size_ + 1)) {
      std::vector<Slot> bigger(table_.size() * 2);
      const size_t mask = bigger.size() - 1;
      for (uint32_t idx = 0; idx < size_; ++idx) {
        size_t i = moves_[idx].result.hash() & mask;
        while (bigger[i].generation == generation_) i = (i + 1) & mask;
        bigger[i] = Slot{generation_, idx};
      }
      table_.swap(bigger);
      mask_ = table_.size() - 1;
    }
    if (moves_.size() <= size_) moves_.resize(moves_.size() * 2);
    grow_at_ = std::min(table_.size() / 2, moves_.size());
  }

  std::vector<Move> moves_;  // storage; the first size_ entries are the moves
  std::vector<Slot> table_;
  size_t size_ = 0;
  size_t mask_ = 255;    // table_.size() - 1
  size_t grow_at_ = 64;  // size_ at which table or storage must grow first
  uint32_t generation_ = 1;
};

// An open-address hash table keyed by (position, tag), a Value beside each key, with the same
// O(1) clear: a slot counts only while it carries the current generation. The enumerator's
// transposition sets and the step action space's memo tables are this one table.
template <class Tag, class Value>
class StampedPositionTable {
 public:
  StampedPositionTable() { table_.assign(256, Slot{}); }
  void clear() noexcept {
    size_ = 0;
    if (++generation_ == 0) {  // wrapped: old stamps could alias the new generation
      for (Slot& s : table_) s = Slot{};
      generation_ = 1;
    }
  }
  // The value stored for (p, tag), or null.
  [[nodiscard]] const Value* find(const Position& p, Tag tag) const noexcept {
    const uint64_t h = mix(p, tag);
    const size_t mask = table_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& s = table_[i];
      if (s.generation != generation_) return nullptr;
      if (s.hash == h && s.tag == tag && s.pos == p) return &s.value;
    }
  }
  // The slot of (p, tag), entered with `value` when it was not in the table yet (second: true).
  std::pair<Value*, bool> insert(const Position& p, Tag tag, Value value = {}) {
    return insert_inline(p, tag, value);
  }
  // insert(), forced inline: for a search's inner loop.
  NARDY_HOT std::pair<Value*, bool> insert_inline(const Position& p, Tag tag, Value value = {}) {
    if ((size_ + 1) * 2 > table_.size()) grow();
    const uint64_t h = mix(p, tag);
    const size_t mask = table_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      Slot& s = table_[i];
      if (s.generation != generation_) {
        s = Slot{p, h, tag, generation_, value};
        ++size_;
        return {&s.value, true};
      }
      if (s.hash == h && s.tag == tag && s.pos == p) return {&s.value, false};
    }
  }

 private:
  struct Slot {
    Position pos{};
    uint64_t hash = 0;
    Tag tag{};
    uint32_t generation = 0;
    [[no_unique_address]] Value value{};
  };
  NARDY_OCC static uint64_t mix(const Position& p, Tag tag) noexcept {
    return p.hash() ^ (static_cast<uint64_t>(tag) * 0x9E3779B97F4A7C15ull);
  }
  void grow() {
    std::vector<Slot> bigger(table_.size() * 2);
    const size_t mask = bigger.size() - 1;
    for (const Slot& s : table_) {
      if (s.generation != generation_) continue;
      size_t i = s.hash & mask;
      while (bigger[i].generation == generation_) i = (i + 1) & mask;
      bigger[i] = s;
    }
    table_.swap(bigger);
  }
  std::vector<Slot> table_;
  size_t size_ = 0;
  uint32_t generation_ = 1;
};

// Plain set of positions, for transposition pruning inside a turn.
class PositionSet {
 public:
  void clear() noexcept { table_.clear(); }
  // True when `p` (tagged with `tag`) was not in the set yet.
  bool insert(const Position& p, uint32_t tag) { return table_.insert(p, tag).second; }
  NARDY_HOT bool insert_inline(const Position& p, uint32_t tag) {
    return table_.insert_inline(p, tag).second;
  }

 private:
  struct Empty {};
  StampedPositionTable<uint32_t, Empty> table_;
};

}  // namespace nardy
