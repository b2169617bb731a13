// Whole-move facts of the rules that do not depend on how the core finds the moves.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <utility>

#include "nardy/engine.hpp"

using namespace nardy;

namespace {

SideArray backgammon_opening() {
  SideArray s{};
  s[23] = 2;
  s[12] = 5;
  s[7] = 3;
  s[5] = 5;
  return s;
}

Position opening(Variant v) {
  if (v == Variant::Backgammon) {
    const Side s = make_side(backgammon_opening());
    return Position{s, s};
  }
  SideArray s{};
  s[23] = 15;  // long nardy: everything on the head
  return Position{make_side(s), make_side(s)};
}

}  // namespace

TEST_CASE("the roll tables hold 21 rolls, 36 when ordered") {
  int plain = 0, ordered = 0;
  std::set<std::pair<int, int>> seen;
  for (const Roll& r : rolls(false)) {
    plain += r.weight;
    REQUIRE(r.d1 >= r.d2);
    seen.insert({r.d1, r.d2});
  }
  for (const Roll& r : rolls(true)) ordered += r.weight;
  CHECK(plain == 21);
  CHECK(ordered == 36);
  CHECK(seen.size() == 21);
}

TEST_CASE("backgammon opening move counts published by other engines") {
  Engine e(Variant::Backgammon, Rules{});
  MoveList list;
  const struct { int d1, d2; size_t moves; } facts[] = {
      {1, 1, 42}, {2, 2, 75}, {3, 3, 73}, {4, 4, 52}, {6, 6, 11}, {3, 1, 16}};
  for (const auto& f : facts) {
    CAPTURE(f.d1);
    CAPTURE(f.d2);
    e.generate(opening(Variant::Backgammon), f.d1, f.d2, list);
    CHECK(list.size() == f.moves);
    CHECK(e.count(opening(Variant::Backgammon), f.d1, f.d2) == f.moves);
    // one move per resulting position
    std::set<std::pair<uint64_t, uint64_t>> results;
    for (size_t i = 0; i < list.size(); ++i) results.insert({list[i].result.us.w[0], list[i].result.us.w[1]});
    CHECK(results.size() == list.size());
  }
}

TEST_CASE("backgammon perft from the opening") {
  Engine e(Variant::Backgammon, Rules{});
  CHECK(e.perft(opening(Variant::Backgammon), 1, false) == 447);
  CHECK(e.perft(opening(Variant::Backgammon), 2, false) == 202782);
}

TEST_CASE("the last checker bears off with any roll") {
  SideArray us{};
  us[0] = 1;
  us[kOff] = 14;
  const Position pos{make_side(us), make_side(backgammon_opening())};
  Engine e(Variant::Backgammon, Rules{});
  MoveList list;
  for (const Roll& r : rolls(false)) {
    e.generate(pos, r.d1, r.d2, list);
    REQUIRE(list.size() == 1);
    CHECK(list[0].result.us.off() == kCheckers);
    CHECK(game_over(list[0].result));
  }
}

TEST_CASE("long nardy perft from the opening, classic head rule") {
  Rules classic;
  classic.head_rule = HeadRule::Classic;
  Engine e(Variant::LongNardy, classic);
  // Published counts of the classic long nardy game tree (21 rolls a ply; 6-6 has two moves).
  CHECK(e.perft(opening(Variant::LongNardy), 1, false) == 22);
  CHECK(e.perft(opening(Variant::LongNardy), 2, false) == 484);
  CHECK(e.perft(opening(Variant::LongNardy), 3, false) == 35387);
}

TEST_CASE("validate rejects impossible positions and accepts the opening") {
  const SideArray s = backgammon_opening();
  CHECK(validate(Variant::Backgammon, s, s).empty());
  SideArray too_many = s;
  too_many[0] = 1;  // 16 checkers
  CHECK_FALSE(validate(Variant::Backgammon, too_many, s).empty());
  SideArray shared = s;
  shared[5] = 4;
  shared[0] = 1;  // mover's 1-point is the opponent's 24-point, which the opponent holds
  CHECK_FALSE(validate(Variant::Backgammon, shared, s).empty());
}
