#include "nardy/engine.hpp"

#include <chrono>
#include <stdexcept>

namespace nardy {

std::array<Roll, 21> rolls(bool ordered) {
  std::array<Roll, 21> r{};
  int k = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = a; b <= 6; ++b) r[k++] = Roll{b, a, (ordered && a != b) ? 2 : 1};
  return r;
}

Engine::Engine(Variant variant, Rules rules)
    : variant_(variant),
      rules_(rules),
      backgammon_(rules),
      backgammon_house_(rules),
      long_nardy_(rules),
      backgammon_enum_(backgammon_),
      backgammon_house_enum_(backgammon_house_),
      long_nardy_enum_(long_nardy_),
      shlem_(rules),
      shlem_enum_(shlem_) {}

void Engine::generate(const Position& pos, int d1, int d2, MoveList& out) {
  switch (variant_) {
    case Variant::Backgammon:
      if (rules_.no_hit_and_hide) {
        backgammon_house_enum_.generate(pos, d1, d2, out);
      } else {
        backgammon_enum_.generate(pos, d1, d2, out);
      }
      return;
    case Variant::LongNardy:
      long_nardy_enum_.generate(pos, d1, d2, out);
      return;
    case Variant::Shlem:
      shlem_enum_.generate(pos, d1, d2, out);
      return;
  }
}

namespace {

// Depth-first: a step can have several successor states with the same position (e.g. which
// checker of a point moved, when the rules follow individual checkers), and only some of them
// may let the following steps apply.
template <class P>
bool apply_from(const P& policy, const typename P::State& s, const Step* steps, int k, int n,
                Position& result, bool match_hit) {
  if (k == n) {
    result = s.pos;
    return true;
  }
  const Step want = steps[k];
  if (want.from < 0 || want.from > kBar) return false;
  bool done = false;
  for (int die = 1; die <= 6 && !done; ++die) {
    if (!(policy.sources(s, die) >> want.from & 1u)) continue;
    policy.for_each_step(s, want.from, die, [&](const typename P::State& next, Step st) {
      if (!done && st.to == want.to && (!match_hit || st.hit == want.hit))
        done = apply_from(policy, next, steps, k + 1, n, result, match_hit);
    });
  }
  return done;
}

template <class P>
bool apply_with(const P& policy, const Position& pos, const Step* steps, int n,
                Position& result, bool match_hit = false) {
  typename P::State starts[2];
  // The most permissive start state: step physics only (whole-turn limits are checked by
  // membership in the generated move set).
  const int n_starts = policy.begin_turn(pos, 1, 2, starts);
  return apply_from(policy, starts[n_starts - 1], steps, 0, n, result, match_hit);
}

}  // namespace

bool Engine::apply_steps(const Position& pos, const Step* steps, int n, Position& result) const {
  // Head limits are a whole-turn rule; for step physics allow the head freely.
  Rules loose = rules_;
  loose.head_rule = HeadRule::Extended;
  switch (variant_) {
    case Variant::Backgammon:
      return rules_.no_hit_and_hide ? apply_with(backgammon_house_, pos, steps, n, result)
                                    : apply_with(backgammon_, pos, steps, n, result);
    case Variant::LongNardy: {
      LongNardyPolicy policy(loose);
      return apply_with(policy, pos, steps, n, result);
    }
    case Variant::Shlem:  // the same (from, to) may take prisoner or hit: Step::hit decides
      return apply_with(shlem_, pos, steps, n, result, true);
  }
  return false;
}

int Engine::to_mover(int j) const noexcept {
  // Long nardy and Shlem both rotate by 12.
  return variant_ == Variant::Backgammon ? BackgammonPolicy::to_mover(j) : (j + 12) % 24;
}

bool Engine::finished(const Position& pos) const noexcept {
  if (variant_ == Variant::Shlem) return shlem::status(pos, rules_).over;
  return game_over(pos);
}

uint64_t Engine::perft(const Position& pos, int depth, bool ordered) {
  if (depth < 0) throw std::invalid_argument("perft depth must be >= 0");
  while (static_cast<int>(scratch_.size()) < depth + 1)
    scratch_.push_back(std::make_unique<MoveList>());
  return perft_rec(pos, depth, ordered);
}

uint64_t Engine::perft_rec(const Position& pos, int depth, bool ordered) {
  if (depth == 0) return 1;
  if (finished(pos)) return 0;
  uint64_t total = 0;
  if (depth == 1) {  // the leaves are only counted (a pass is one leaf)
    for (const Roll& r : rolls(ordered)) {
      const size_t n = count(pos, r.d1, r.d2);
      total += (n ? n : 1) * static_cast<uint64_t>(r.weight);
    }
    return total;
  }
  MoveList& list = *scratch_[depth];
  for (const Roll& r : rolls(ordered)) {
    generate(pos, r.d1, r.d2, list);
    uint64_t sub = 0;
    if (list.empty()) {
      sub = perft_rec(pos.swapped(), depth - 1, ordered);
    } else {
      for (size_t i = 0; i < list.size(); ++i)
        sub += perft_rec(list[i].result.swapped(), depth - 1, ordered);
    }
    total += sub * static_cast<uint64_t>(r.weight);
  }
  return total;
}

std::vector<DivideEntry> Engine::divide(const Position& pos, int depth, bool ordered) {
  if (depth < 1) throw std::invalid_argument("divide depth must be >= 1");
  std::vector<DivideEntry> out;
  MoveList list;
  for (const Roll& r : rolls(ordered)) {
    generate(pos, r.d1, r.d2, list);
    uint64_t sub = 0;
    if (list.empty()) {
      sub = perft(pos.swapped(), depth - 1, ordered);
    } else {
      std::vector<Position> children;
      children.reserve(list.size());
      for (size_t i = 0; i < list.size(); ++i) children.push_back(list[i].result.swapped());
      for (const Position& c : children) sub += perft(c, depth - 1, ordered);
    }
    out.push_back(DivideEntry{r.d1, r.d2, sub * static_cast<uint64_t>(r.weight)});
  }
  return out;
}

namespace {

// Shlem: 15 checkers a side (12 on the board at the start + 3 reserves), at most 3 reserves,
// -1 = one checker held prisoner; a point holds both colours only as one prisoner under one
// or more capturers.
std::string validate_shlem(const SideArray& us, const SideArray& them) {
  const SideArray* sides[2] = {&us, &them};
  const char* names[2] = {"mover", "opponent"};
  for (int s = 0; s < 2; ++s) {
    const SideArray& a = *sides[s];
    int total = 0;
    for (int k = 0; k < kSlots; ++k) {
      const int n = a[k];
      if (n < (k < kPoints ? -1 : 0) || n > kCheckers)
        return std::string(names[s]) + " slot " + std::to_string(k) + " holds " +
               std::to_string(n) + (k < kPoints ? " (-1 = a prisoner, 0..15 allowed)"
                                               : " checkers (0..15 allowed)");
      total += n < 0 ? 1 : n;
    }
    if (total != kCheckers)
      return std::string(names[s]) + " has " + std::to_string(total) +
             " checkers, must have exactly 15";
    if (a[shlem::kReserve] > shlem::kReserves)
      return std::string(names[s]) + " has " + std::to_string(a[shlem::kReserve]) +
             " reserve checkers, at most 3";
  }
  for (int i = 0; i < kPoints; ++i) {
    const int j = shlem::to_mover(i);
    const int a = us[i], b = them[j];
    const std::string where =
        "mover index " + std::to_string(i) + " (opponent index " + std::to_string(j) + ")";
    if (a < 0 && b < 0) return where + ": both checkers marked prisoner";
    if (a < 0 && b == 0) return where + ": a prisoner of the mover with no capturer on it";
    if (b < 0 && a == 0) return where + ": a prisoner of the opponent with no capturer on it";
    if (a > 0 && b > 0)
      return where + ": both sides hold checkers and neither is a prisoner (mark it -1)";
  }
  return {};
}

}  // namespace

EnumerationStats enumerate_all(Engine& engine, const std::vector<Position>& positions,
                               int repeat) {
  EnumerationStats stats;
  MoveList list;
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; ++r)
    for (const Position& p : positions)
      for (const Roll& roll : rolls(false)) {
        engine.generate(p, roll.d1, roll.d2, list);
        ++stats.enumerations;
        stats.results += list.size();
      }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

std::string validate(Variant variant, const SideArray& us, const SideArray& them) {
  if (variant == Variant::Shlem) return validate_shlem(us, them);
  const SideArray* sides[2] = {&us, &them};
  const char* names[2] = {"mover", "opponent"};
  for (int s = 0; s < 2; ++s) {
    int total = 0;
    for (int k = 0; k < kSlots; ++k) {
      const int n = (*sides[s])[k];
      if (n < 0 || n > kCheckers)
        return std::string(names[s]) + " slot " + std::to_string(k) + " holds " +
               std::to_string(n) + " checkers (0..15 allowed)";
      total += n;
    }
    if (total != kCheckers)
      return std::string(names[s]) + " has " + std::to_string(total) +
             " checkers, must have exactly 15";
    if (variant == Variant::LongNardy && (*sides[s])[kBar] != 0)
      return std::string("long nardy has no bar, but the ") + names[s] + " has checkers on it";
  }
  for (int j = 0; j < kPoints; ++j) {
    if (them[j] == 0) continue;
    const int i = variant == Variant::Backgammon ? BackgammonPolicy::to_mover(j) : (j + 12) % 24;
    if (us[i] != 0)
      return "mover index " + std::to_string(i) + " and opponent index " + std::to_string(j) +
             " are the same point and both hold checkers";
  }
  return {};
}

}  // namespace nardy
