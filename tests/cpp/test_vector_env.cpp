// VectorEnv (vector_env.hpp): seeds reproducible whatever the thread count and the number of
// games, step-mode masks that lead exactly to the legal moves (and the lists of legal actions
// beside them), Acey-deucey's named double in step mode, afterstates that are the
// enumerator's results, and the auto-reset of games that end or reach max_plies.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "nardy/engine.hpp"
#include "nardy/registry.hpp"
#include "nardy/steps.hpp"
#include "nardy/vector_env.hpp"
#include "named_variant.hpp"

using namespace nardy;
using nardy::testing::Named;
using nardy::testing::named;

namespace {

Position start_of(Variant v) {
  const VariantEntry& e = variant_entry(v);
  return Position{e.make_side(e.start), e.make_side(e.start)};
}

// A decision that depends only on the game's index, the call number and what the game offers.
int64_t choose(const VectorEnv& env, size_t i, int call) {
  const uint64_t k = (i * 31 + static_cast<uint64_t>(call) * 17 + 5);
  if (!env.observation().steps) {
    const int64_t count = env.offsets()[i + 1] - env.offsets()[i];
    REQUIRE(count > 0);
    return static_cast<int64_t>(k % static_cast<uint64_t>(count));
  }
  const size_t a = static_cast<size_t>(env.actions());
  std::vector<int64_t> legal;
  for (size_t j = 0; j < a; ++j)
    if (env.masks()[i * a + j]) legal.push_back(static_cast<int64_t>(j));
  REQUIRE_FALSE(legal.empty());
  return legal[k % legal.size()];
}

// What a game shows after each call: its position, dice, player on roll, episode and ply, and
// the reward / end flags of the call.
struct Frame {
  Position pos;
  int d1, d2, to_play;
  uint32_t episode, ply;
  float reward;
  int terminated, truncated;
  bool operator==(const Frame& o) const {
    return pos == o.pos && d1 == o.d1 && d2 == o.d2 && to_play == o.to_play &&
           episode == o.episode && ply == o.ply && reward == o.reward &&
           terminated == o.terminated && truncated == o.truncated;
  }
};

// Frames of every game over `calls` calls after reset(seed).
std::vector<std::vector<Frame>> trace(const Named& v, size_t n, int threads, bool steps,
                                      uint64_t seed, int calls, uint32_t max_plies = 5000) {
  VectorObservation obs;
  obs.steps = steps;
  VectorEnv env(v.variant, v.rules, n, threads, max_plies, obs);
  CHECK(env.threads() == std::min<int>(threads, static_cast<int>(n)));
  env.reset(seed);
  std::vector<std::vector<Frame>> out(n);
  std::vector<int64_t> actions(n);
  std::vector<float> rewards(n);
  std::vector<uint8_t> term(n), trunc(n);
  for (int c = 0; c <= calls; ++c) {
    for (size_t i = 0; i < n; ++i)
      out[i].push_back(Frame{env.position(i), env.dice()[2 * i], env.dice()[2 * i + 1],
                             env.to_play()[i], env.episodes()[i], env.plies()[i],
                             c ? rewards[i] : 0.0f, c ? term[i] : 0, c ? trunc[i] : 0});
    if (c == calls) break;
    for (size_t i = 0; i < n; ++i) actions[i] = choose(env, i, c);
    REQUIRE(env.step(actions.data(), rewards.data(), term.data(), trunc.data()) == -1);
  }
  return out;
}

}  // namespace

TEST_CASE("a game depends on the seed, its index and its actions, not on threads or n") {
  for (const char* name : {"backgammon", "long-nardy", "acey-deucey"}) {
    const std::string variant_name = name;
    CAPTURE(variant_name);
    const Named v = named(name);
    for (bool steps : {false, true}) {
      CAPTURE(steps);
      const int calls = steps ? 120 : 60;
      const auto one = trace(v, 11, 1, steps, 42, calls);
      CHECK(trace(v, 11, 2, steps, 42, calls) == one);
      CHECK(trace(v, 11, 3, steps, 42, calls) == one);
      // the first games of a smaller env play the same games
      const auto few = trace(v, 4, 2, steps, 42, calls);
      for (size_t i = 0; i < few.size(); ++i) CHECK(few[i] == one[i]);
      // another seed, other dice (the chance that 11 games' first rolls all agree is nil)
      const auto other = trace(v, 11, 1, steps, 43, 0);
      bool differ = false;
      for (size_t i = 0; i < other.size(); ++i)
        differ |= other[i][0].d1 != one[i][0].d1 || other[i][0].d2 != one[i][0].d2;
      CHECK(differ);
      // games of one env do not share their dice
      std::set<std::pair<int, int>> firsts;
      for (const auto& g : one) firsts.insert({g[0].d1, g[0].d2});
      CHECK(firsts.size() > 1);
    }
  }
}

using Key = std::array<uint64_t, 4>;
Key key_of(const Position& p) { return {p.us.w[0], p.us.w[1], p.them.w[0], p.them.w[1]}; }

TEST_CASE("afterstates are the legal moves' results") {
  for (const char* name : {"backgammon", "long-nardy", "shlem"}) {
    const std::string variant_name = name;
    CAPTURE(variant_name);
    const Named v = named(name);
    Engine engine(v.variant, v.rules);
    const size_t n = 6;
    VectorEnv env(v.variant, v.rules, n, 1, 5000, VectorObservation{});
    env.reset(9);
    std::vector<int64_t> actions(n);
    std::vector<float> rewards(n);
    std::vector<uint8_t> term(n), trunc(n);
    MoveList list;
    for (int c = 0; c < 40; ++c) {
      for (size_t i = 0; i < n; ++i) {
        engine.generate(env.position(i), env.dice()[2 * i], env.dice()[2 * i + 1], list);
        REQUIRE_FALSE(list.empty());  // passes happen inside the env
        const int64_t lo = env.offsets()[i], hi = env.offsets()[i + 1];
        REQUIRE(static_cast<size_t>(hi - lo) == list.size());
        for (int64_t r = lo; r < hi; ++r) {
          int8_t row[kRowBytes];
          unpack_row(list[static_cast<size_t>(r - lo)].result, row, variant_entry(v.variant).spare);
          const int8_t* got = env.afterstate_rows().data.get() + r * kRowBytes;
          CHECK(std::equal(row, row + kRowBytes, got));
        }
        actions[i] = choose(env, i, c);
      }
      REQUIRE(env.step(actions.data(), rewards.data(), term.data(), trunc.data()) == -1);
    }
  }
}

TEST_CASE("step-mode masks lead exactly to the legal moves") {
  for (const char* name : {"backgammon", "long-nardy", "shlem"}) {
    const std::string variant_name = name;
    CAPTURE(variant_name);
    const Named v = named(name);
    Engine engine(v.variant, v.rules);
    const size_t n = 6;
    VectorObservation obs;
    obs.steps = true;
    VectorEnv env(v.variant, v.rules, n, 2, 5000, obs);
    env.reset(9);
    const size_t a = static_cast<size_t>(env.actions());
    std::vector<int64_t> actions(n);
    std::vector<float> rewards(n);
    std::vector<uint8_t> term(n), trunc(n);
    std::vector<std::vector<int>> played(n);  // the steps of each game's turn so far
    std::vector<Position> turn_start(n);
    std::vector<std::pair<int, int>> turn_dice(n);
    MoveList list;
    auto turn = engine.step_turn();
    int walked = 0;
    for (int c = 0; c < 80; ++c) {
      for (size_t i = 0; i < n; ++i) {
        if (env.steps_played()[i] == 0) {
          played[i].clear();
          turn_start[i] = env.position(i);
          turn_dice[i] = {env.dice()[2 * i], env.dice()[2 * i + 1]};
        }
        REQUIRE(env.steps_played()[i] == played[i].size());
        // the env's mask is the one of a turn replaying the same steps
        turn->begin(turn_start[i], turn_dice[i].first, turn_dice[i].second);
        for (int s : played[i]) REQUIRE(turn->play(s));
        // the env shows the position after the steps so far
        int8_t row[kRowBytes];
        unpack_row(turn->position(), row, variant_entry(v.variant).spare);
        CHECK(std::equal(row, row + kRowBytes, env.boards().begin() + i * kRowBytes));
        CHECK(key_of(env.position(i)) == key_of(turn_start[i]));
        std::vector<uint8_t> mask(a);
        REQUIRE(turn->mask(mask.data()) > 0);
        CHECK(std::equal(mask.begin(), mask.end(), env.masks().begin() + i * a));
        if (played[i].empty() && walked < 60) {
          // every path the masks allow ends on a legal result, every legal result is reached
          engine.generate(turn_start[i], turn_dice[i].first, turn_dice[i].second, list);
          std::set<Key> want, got;
          for (const Move& m : list) want.insert(key_of(m.result));
          size_t paths = 0;
          auto walk = [&](auto&& self) -> void {
            if (turn->done()) {
              got.insert(key_of(turn->position()));
              ++paths;
              return;
            }
            std::vector<uint8_t> m(a);
            REQUIRE(turn->mask(m.data()) > 0);
            for (size_t j = 0; j < a && paths < 20000; ++j) {
              if (!m[j]) {
                continue;
              }
              REQUIRE(turn->play(static_cast<int>(j)));
              self(self);
              REQUIRE(turn->undo());
            }
          };
          walk(walk);
          if (paths < 20000) {
            CHECK(got == want);
            ++walked;
          }
          for (const Key& g : got) CHECK(want.count(g) == 1);
        }
        actions[i] = choose(env, i, c);
        // a step the mask refuses is refused by the env, and nothing changes
        for (size_t j = 0; j < a; ++j)
          if (!env.masks()[i * a + j]) {
            std::vector<int64_t> bad = actions;
            bad[i] = static_cast<int64_t>(j);
            const uint32_t ply = env.plies()[i];
            CHECK(env.step(bad.data(), rewards.data(), term.data(), trunc.data()) ==
                  static_cast<long>(i));
            CHECK(env.plies()[i] == ply);
            break;
          }
      }
      REQUIRE(env.step(actions.data(), rewards.data(), term.data(), trunc.data()) == -1);
      for (size_t i = 0; i < n; ++i) played[i].push_back(static_cast<int>(actions[i]));
    }
    CHECK(walked >= 10);
  }
}

TEST_CASE("games that end or reach max_plies start their next episode at once") {
  const Named v = named("backgammon");
  const Position start = start_of(v.variant);
  for (bool steps : {false, true}) {
    CAPTURE(steps);
    // cut off after 7 plies: every game is truncated at its seventh turn, with no reward
    {
      const auto frames = trace(v, 5, 1, steps, 3, steps ? 60 : 20, 7);
      for (const auto& g : frames) {
        int cuts = 0;
        for (size_t c = 1; c < g.size(); ++c) {
          CHECK(g[c].terminated == 0);
          CHECK(g[c].reward == 0.0f);
          if (g[c].truncated) {
            ++cuts;
            CHECK(g[c].episode == g[c - 1].episode + 1);
            CHECK(g[c].ply == 0);
            CHECK(g[c].pos == start);
            CHECK(g[c].to_play == 0);
          } else {
            CHECK(g[c].episode == g[c - 1].episode);
          }
          CHECK(g[c].ply < 7);
        }
        CHECK(cuts >= 1);
      }
    }
    // played to the end: the mover wins by bearing off its last checker (1 to 3 points),
    // and the game is back at the start
    {
      const auto frames = trace(v, 4, 2, steps, 5, steps ? 1200 : 500);
      int ends = 0;
      for (const auto& g : frames)
        for (size_t c = 1; c < g.size(); ++c) {
          if (!g[c].terminated) {
            CHECK(g[c].reward == 0.0f);
            continue;
          }
          ++ends;
          CHECK(g[c].reward >= 1.0f);
          CHECK(g[c].reward <= 3.0f);
          CHECK(g[c].episode == g[c - 1].episode + 1);
          CHECK(g[c].ply == 0);
          CHECK(g[c].pos == start);
          // the game before the step was one turn from its end: the mover had checkers left
          CHECK(g[c - 1].pos.us.off() < 15);
        }
      CHECK(ends >= 4);
    }
  }
}

// The env's list of game i's legal actions is the set entries of its mask row, ascending.
void check_legal_list(const VectorEnv& env) {
  const size_t a = static_cast<size_t>(env.actions());
  const auto& off = env.legal_offsets();
  REQUIRE(off.size() == env.size() + 1);
  REQUIRE(off.front() == 0);
  REQUIRE(static_cast<size_t>(off.back()) == env.legal_total());
  for (size_t i = 0; i < env.size(); ++i) {
    std::vector<int32_t> want;
    for (size_t j = 0; j < a; ++j)
      if (env.masks()[i * a + j]) want.push_back(static_cast<int32_t>(j));
    REQUIRE(off[i + 1] >= off[i]);
    const int32_t* got = env.legal_actions().data.get() + off[i];
    CHECK(std::vector<int32_t>(got, got + (off[i + 1] - off[i])) == want);
  }
}

TEST_CASE("step mode lists the legal actions beside the mask") {
  for (const char* name : {"backgammon", "long-nardy", "shlem", "acey-deucey", "plakoto"}) {
    const std::string variant_name = name;
    CAPTURE(variant_name);
    const Named v = named(name);
    const size_t n = 7;
    VectorObservation obs;
    obs.steps = true;
    for (int threads : {1, 3}) {
      VectorEnv env(v.variant, v.rules, n, threads, 5000, obs);
      env.reset(21);
      std::vector<int64_t> actions(n);
      std::vector<float> rewards(n);
      std::vector<uint8_t> term(n), trunc(n);
      for (int c = 0; c < 60; ++c) {
        check_legal_list(env);
        for (size_t i = 0; i < n; ++i) actions[i] = choose(env, i, c);
        REQUIRE(env.step(actions.data(), rewards.data(), term.data(), trunc.data()) == -1);
      }
      check_legal_list(env);
    }
  }
}

TEST_CASE("step mode plays Acey-deucey's named double, and the same player rolls again") {
  // Each finished turn is replayed by a StepTurn of its own from the position and dice the
  // turn began with: its (result, named double, again) must be one of the whole turn's moves
  // (Engine::generate_turn), and the env must go on as `again` says: the same player on roll
  // with the result as it is, or the other player with it swapped.
  const Named v = named("acey-deucey");
  Engine engine(v.variant, v.rules);
  const size_t n = 6;
  VectorObservation obs;
  obs.steps = true;
  VectorEnv env(v.variant, v.rules, n, 2, 5000, obs);
  env.reset(17);
  const size_t a = static_cast<size_t>(env.actions());
  const int first_name = 25 * 25 + 1;  // the pass, then "name double d" for d = 1..6
  REQUIRE(static_cast<int>(a) == first_name + 6);
  std::vector<int64_t> actions(n);
  std::vector<float> rewards(n);
  std::vector<uint8_t> term(n), trunc(n);
  std::vector<std::vector<int>> played(n);
  std::vector<Position> turn_start(n);
  std::vector<std::array<int, 4>> turn_info(n);  // d1, d2, ply, to_play when the turn began
  auto turn = engine.step_turn();
  TurnList list;
  int named_turns = 0, agains = 0, turns = 0;
  for (int c = 0; c < 400; ++c) {
    for (size_t i = 0; i < n; ++i) {
      if (env.steps_played()[i] == 0) {
        played[i].clear();
        turn_start[i] = env.position(i);
        turn_info[i] = {env.dice()[2 * i], env.dice()[2 * i + 1], static_cast<int>(env.plies()[i]),
                        env.to_play()[i]};
      }
      // prefer naming a double where the mask allows one: the test is about them
      actions[i] = choose(env, i, c);
      for (int d = 6; d >= 1; --d)
        if (env.masks()[i * a + static_cast<size_t>(first_name + d - 1)])
          actions[i] = first_name + d - 1;
    }
    const std::vector<uint32_t> episodes_before(env.episodes().begin(), env.episodes().end());
    REQUIRE(env.step(actions.data(), rewards.data(), term.data(), trunc.data()) == -1);
    for (size_t i = 0; i < n; ++i) {
      played[i].push_back(static_cast<int>(actions[i]));
      if (env.episodes()[i] == episodes_before[i] &&
          static_cast<int>(env.plies()[i]) == turn_info[i][2])
        continue;  // the turn goes on
      ++turns;
      const int turn_number = 1 + turn_info[i][2] / 2;
      turn->begin(turn_start[i], turn_info[i][0], turn_info[i][1], turn_number);
      for (int s : played[i]) REQUIRE(turn->play(s));
      REQUIRE(turn->done());
      engine.generate_turn(turn_start[i], turn_info[i][0], turn_info[i][1], turn_number, list);
      bool found = false;
      for (const TurnMove& m : list)
        found |= m.result == turn->position() && m.named == turn->named() &&
                 m.again == turn->again();
      CHECK(found);
      named_turns += turn->named() != 0;
      agains += turn->again();
      if (term[i] || env.episodes()[i] != episodes_before[i]) continue;
      // passes may follow inside the env: compare only when the next decision is the next ply
      if (static_cast<int>(env.plies()[i]) != turn_info[i][2] + 1) continue;
      if (turn->again()) {
        CHECK(env.to_play()[i] == turn_info[i][3]);
        CHECK(env.position(i) == turn->position());
      } else {
        CHECK(env.to_play()[i] == 1 - turn_info[i][3]);
        CHECK(env.position(i) == turn->position().swapped());
      }
    }
  }
  CHECK(turns > 100);
  CHECK(named_turns >= 3);
  CHECK(agains >= 2);
}
