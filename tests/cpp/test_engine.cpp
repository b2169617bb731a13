// Whole-move facts of the rules that do not depend on how the core finds the moves.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <utility>

#include "nardy/engine.hpp"
#include "nardy/registry.hpp"
#include "named_variant.hpp"

using namespace nardy;
using nardy::testing::Named;
using nardy::testing::named;

namespace {

SideArray backgammon_opening() {
  SideArray s{};
  s[23] = 2;
  s[12] = 5;
  s[7] = 3;
  s[5] = 5;
  return s;
}

Position backgammon_start() {
  const Side s = make_side(backgammon_opening());
  return Position{s, s};
}

Position long_nardy_start() {
  SideArray s{};
  s[23] = 15;  // everything on the head
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

TEST_CASE("variants are found by the names Python uses") {
  CHECK(named("длинные нарды").variant == named("long-nardy").variant);
  CHECK(named("long-nardy-classic").rules.head_rule == HeadRule::Classic);
  Variant v{};
  Rules r{};
  CHECK_FALSE(find_variant("no such variant", v, r));
}

TEST_CASE("backgammon opening move counts published by other engines") {
  const Named bg = named("backgammon");
  Engine e(bg.variant, bg.rules);
  MoveList list;
  const struct { int d1, d2; size_t moves; } facts[] = {
      {1, 1, 42}, {2, 2, 75}, {3, 3, 73}, {4, 4, 52}, {6, 6, 11}, {3, 1, 16}};
  for (const auto& f : facts) {
    CAPTURE(f.d1);
    CAPTURE(f.d2);
    e.generate(backgammon_start(), f.d1, f.d2, list);
    CHECK(list.size() == f.moves);
    CHECK(e.count(backgammon_start(), f.d1, f.d2) == f.moves);
    // one move per resulting position
    std::set<std::pair<uint64_t, uint64_t>> results;
    for (size_t i = 0; i < list.size(); ++i)
      results.insert({list[i].result.us.w[0], list[i].result.us.w[1]});
    CHECK(results.size() == list.size());
  }
}

TEST_CASE("backgammon perft from the opening") {
  const Named bg = named("backgammon");
  Engine e(bg.variant, bg.rules);
  CHECK(e.perft(backgammon_start(), 1, false) == 447);
  CHECK(e.perft(backgammon_start(), 2, false) == 202782);
}

TEST_CASE("the last checker bears off with any roll") {
  SideArray us{};
  us[0] = 1;
  us[kOff] = 14;
  const Position pos{make_side(us), make_side(backgammon_opening())};
  const Named bg = named("backgammon");
  Engine e(bg.variant, bg.rules);
  MoveList list;
  for (const Roll& r : rolls(false)) {
    e.generate(pos, r.d1, r.d2, list);
    REQUIRE(list.size() == 1);
    CHECK(list[0].result.us.off() == 15);
    CHECK(e.finished(list[0].result));
  }
  CHECK_FALSE(e.finished(pos));
}

TEST_CASE("long nardy perft from the opening, classic head rule") {
  const Named classic = named("long-nardy-classic");
  Engine e(classic.variant, classic.rules);
  // Published counts of the classic long nardy game tree (21 rolls a ply).
  CHECK(e.perft(long_nardy_start(), 1, false) == 22);
  CHECK(e.perft(long_nardy_start(), 2, false) == 484);
  CHECK(e.perft(long_nardy_start(), 3, false) == 35387);
}

TEST_CASE("validate rejects impossible positions and accepts the opening") {
  const Variant bg = named("backgammon").variant;
  const SideArray s = backgammon_opening();
  CHECK(validate(bg, s, s).empty());
  SideArray too_many = s;
  too_many[0] = 1;  // 16 checkers
  CHECK_FALSE(validate(bg, too_many, s).empty());
  SideArray shared = s;
  shared[5] = 4;
  shared[0] = 1;  // mover's 1-point is the opponent's 24-point, which the opponent holds
  CHECK_FALSE(validate(bg, shared, s).empty());
}
