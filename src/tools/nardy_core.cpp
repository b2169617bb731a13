// nardy-core: the C++ core without Python. Subcommands:
//   nardy-core perft (backgammon|long|shlem) DEPTH [--ordered] [--head federation|classic|extended]
//   nardy-core bench (backgammon|long|shlem) FILE [REPEAT]   FILE: one position a line, 26
//       mover counts, '|', 26 opponent counts (the format `nardy` writes for benchmarks; Shlem:
//       -1 marks a checker held prisoner on that point, as in the Python side arrays)
//   nardy-core rollout (backgammon|long|shlem) GAMES [random|greedy] [SEED] [THREADS]
//       games from the opening, for profiling rollouts without Python
//   nardy-core selftest   checks opening facts published by independent engines
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nardy/engine.hpp"
#include "nardy/rollout.hpp"

using namespace nardy;

namespace {

Position opening(Variant v) {
  SideArray s{};
  if (v == Variant::Backgammon) {
    s[23] = 2; s[12] = 5; s[7] = 3; s[5] = 5;
  } else if (v == Variant::LongNardy) {
    s[23] = 15;
  } else {  // Shlem: one checker on each point of the own line, three in reserve
    for (int i = 0; i < 12; ++i) s[i] = 1;
    s[shlem::kReserve] = shlem::kReserves;
  }
  return Position{shlem::make_side(s), shlem::make_side(s)};
}

bool parse_variant(const char* name, Variant& v) {
  if (!std::strcmp(name, "backgammon")) { v = Variant::Backgammon; return true; }
  if (!std::strcmp(name, "long")) { v = Variant::LongNardy; return true; }
  if (!std::strcmp(name, "shlem")) { v = Variant::Shlem; return true; }
  std::fprintf(stderr, "unknown variant %s (backgammon|long|shlem)\n", name);
  return false;
}

int perft_cmd(int argc, char** argv) {
  if (argc < 4) return 2;
  Variant v;
  if (!parse_variant(argv[2], v)) return 2;
  const int depth = std::atoi(argv[3]);
  Rules rules;
  bool ordered = false;
  for (int i = 4; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--ordered")) ordered = true;
    if (!std::strcmp(argv[i], "--head") && i + 1 < argc) {
      const std::string h = argv[++i];
      rules.head_rule = h == "classic" ? HeadRule::Classic
                        : h == "extended" ? HeadRule::Extended : HeadRule::Federation;
    }
  }
  Engine e(v, rules);
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t n = e.perft(opening(v), depth, ordered);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("perft %d = %llu  (%.3f s, %.0f leaves/s)\n", depth, (unsigned long long)n, s,
              n / (s > 0 ? s : 1e-9));
  return 0;
}

int bench_cmd(int argc, char** argv) {
  if (argc < 4) return 2;
  Variant v;
  if (!parse_variant(argv[2], v)) return 2;
  const int repeat = argc > 4 ? std::atoi(argv[4]) : 1;
  std::ifstream in(argv[3]);
  std::vector<Position> positions;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    for (char& c : line) if (c == '|') c = ' ';
    std::istringstream ss(line);
    SideArray us{}, them{};
    for (int& x : us) ss >> x;
    for (int& x : them) ss >> x;
    const std::string err = validate(v, us, them);
    if (!err.empty()) { std::fprintf(stderr, "bad position: %s\n", err.c_str()); return 1; }
    positions.push_back(Position{shlem::make_side(us), shlem::make_side(them)});
  }
  Engine e(v, Rules{});
  const EnumerationStats st = enumerate_all(e, positions, repeat);
  std::printf("%zu positions x 21 rolls x %d: %.0f enumerations/s, %.0f resulting positions/s\n",
              positions.size(), repeat, st.enumerations / st.seconds, st.results / st.seconds);
  return 0;
}

int rollout_cmd(int argc, char** argv) {
  if (argc < 4) return 2;
  Variant v;
  if (!parse_variant(argv[2], v)) return 2;
  RolloutSettings st;
  st.trials = std::strtoull(argv[3], nullptr, 10);
  st.policy = argc > 4 && !std::strcmp(argv[4], "greedy") ? RolloutPolicy::Greedy
                                                          : RolloutPolicy::Random;
  st.seed = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 1;
  st.threads = argc > 6 ? std::atoi(argv[6]) : 1;
  const auto t0 = std::chrono::steady_clock::now();
  const RolloutCounts c = rollout(v, Rules{}, opening(v), st);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%llu games, %.1f plies/game, points %lld: %.0f games/s, %.0f plies/s\n",
              (unsigned long long)c.games, double(c.plies) / double(c.games ? c.games : 1),
              (long long)c.points, c.games / s, c.plies / s);
  return 0;
}

int selftest() {
  // Opening move counts per roll, published for GNU Backgammon, wildbg and OpenSpiel.
  struct Fact { int d1, d2; size_t moves; };
  const Fact facts[] = {{1, 1, 42}, {2, 2, 75}, {3, 3, 73}, {4, 4, 52}, {3, 1, 16}, {6, 6, 11}};
  Engine e(Variant::Backgammon, Rules{});
  MoveList list;
  int failures = 0;
  for (const Fact& f : facts) {
    e.generate(opening(Variant::Backgammon), f.d1, f.d2, list);
    if (list.size() != f.moves) {
      std::printf("FAIL opening %d-%d: %zu moves, expected %zu\n", f.d1, f.d2, list.size(), f.moves);
      ++failures;
    }
  }
  const uint64_t p2 = e.perft(opening(Variant::Backgammon), 2, false);
  if (p2 != 202782) { std::printf("FAIL backgammon perft 2 = %llu\n", (unsigned long long)p2); ++failures; }
  Rules classic;
  classic.head_rule = HeadRule::Classic;
  Engine l(Variant::LongNardy, classic);
  const uint64_t l3 = l.perft(opening(Variant::LongNardy), 3, false);
  if (l3 != 35387) { std::printf("FAIL long nardy classic perft 3 = %llu\n", (unsigned long long)l3); ++failures; }
  std::printf("%d passed, %d failed\n", 8 - failures, failures);
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && !std::strcmp(argv[1], "perft")) return perft_cmd(argc, argv);
  if (argc >= 2 && !std::strcmp(argv[1], "bench")) return bench_cmd(argc, argv);
  if (argc >= 2 && !std::strcmp(argv[1], "rollout")) return rollout_cmd(argc, argv);
  if (argc >= 2 && !std::strcmp(argv[1], "selftest")) return selftest();
  std::fprintf(stderr,
               "usage: nardy-core perft (backgammon|long|shlem) DEPTH [--ordered] [--head RULE]\n"
               "       nardy-core bench (backgammon|long|shlem) FILE [REPEAT]\n"
               "       nardy-core rollout (backgammon|long|shlem) GAMES [random|greedy] [SEED] [THREADS]\n"
               "       nardy-core selftest\n");
  return 2;
}
