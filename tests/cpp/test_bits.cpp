// The packed side and the bit helpers against plain loops over slot counts.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>

#include "nardy/position.hpp"

using namespace nardy;

namespace {

// A small deterministic generator (the checks need varied inputs, not good randomness).
struct Lcg {
  uint64_t x;
  uint32_t next() {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(x >> 32);
  }
};

// Deals 15 checkers (a backgammon side) over the 26 slots at random.
SideArray random_side(Lcg& g) {
  SideArray a{};
  for (int i = 0; i < 15; ++i) ++a[g.next() % kSlots];
  return a;
}

}  // namespace

TEST_CASE("count_bits agrees with std::popcount") {
  Lcg g{1};
  CHECK(count_bits(0) == 0);
  CHECK(count_bits(0xFFFFFFFFu) == 32);
  for (int i = 0; i < 100000; ++i) {
    const uint32_t x = g.next();
    REQUIRE(count_bits(x) == std::popcount(x));
  }
}

TEST_CASE("reverse24 maps bit i to bit 23 - i") {
  Lcg g{2};
  for (int i = 0; i < 10000; ++i) {
    const uint32_t x = g.next() & kBoardMask;
    uint32_t expected = 0;
    for (int b = 0; b < kPoints; ++b)
      if (x >> b & 1u) expected |= 1u << (23 - b);
    REQUIRE(reverse24(x) == expected);
  }
}

TEST_CASE("a side keeps the counts it is built from") {
  Lcg g{3};
  for (int i = 0; i < 2000; ++i) {
    const SideArray a = random_side(g);
    const Side s = make_side(a);
    REQUIRE(side_array(s) == a);
    uint32_t occ1 = 0, occ2 = 0;
    for (int p = 0; p < kPoints; ++p) {
      REQUIRE(s.count(p) == a[p]);
      REQUIRE(s.empty(p) == (a[p] == 0));
      REQUIRE(s.single(p) == (a[p] == 1));
      if (a[p] >= 1) occ1 |= 1u << p;
      if (a[p] >= 2) occ2 |= 1u << p;
    }
    REQUIRE(s.occ1() == occ1);
    REQUIRE(s.occ2() == occ2);
  }
}

TEST_CASE("moving a checker down changes two counts") {
  Lcg g{4};
  for (int i = 0; i < 2000; ++i) {
    SideArray a = random_side(g);
    const int from = static_cast<int>(g.next() % kPoints);
    const int die = 1 + static_cast<int>(g.next() % 6);
    if (a[from] == 0) continue;
    const int to = from - die < 0 ? kOff : from - die;
    if (a[to] == 15) continue;  // a nibble holds at most 15
    Side s = make_side(a);
    s.move_down(from, die);
    --a[from];
    ++a[to];
    REQUIRE(side_array(s) == a);
  }
}
