// nardy-core: the C++ core without Python. VARIANT is any name or alias nardy.find_variant
// knows (`nardy-core variants` lists them). Subcommands:
//   nardy-core perft VARIANT DEPTH [--ordered] [--head federation|classic|extended]
//       [--table-mb MB] [--threads N]   MB: a transposition table of that size (0: none);
//       N: threads (0: all cores, default 1)
//   nardy-core bench VARIANT FILE [REPEAT]   FILE: one position a line, 26 mover counts, '|',
//       26 opponent counts (the format `nardy` writes for benchmarks; Shlem: -1 marks a checker
//       held prisoner on that point, as in the Python side arrays)
//   nardy-core rollout VARIANT GAMES [random|greedy] [SEED] [THREADS]
//       games from the opening, for profiling rollouts without Python
//   nardy-core variants   every variant: its core key, then its names
//   nardy-core selftest   checks opening facts published by independent engines
// Bad arguments, an unreadable file or a bad position print a message and exit with 2 (usage)
// or 1 (anything else).
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "nardy/engine.hpp"
#include "nardy/registry.hpp"
#include "nardy/rollout.hpp"

using namespace nardy;

namespace {

constexpr const char* kUsage =
    "usage: nardy-core perft VARIANT DEPTH [--ordered] [--head federation|classic|extended]\n"
    "                  [--table-mb MB] [--threads N]\n"
    "       nardy-core bench VARIANT FILE [REPEAT]\n"
    "       nardy-core rollout VARIANT GAMES [random|greedy] [SEED] [THREADS]\n"
    "       nardy-core variants\n"
    "       nardy-core selftest\n";

// A usage error: the message, then exit status 2.
struct UsageError {
  std::string message;
};

Position opening(Variant v) {
  const VariantEntry& e = variant_entry(v);
  return Position{e.make_side(e.start), e.make_side(e.start)};
}

void parse_variant(const char* name, Variant& v, Rules& rules) {
  if (!find_variant(name, v, rules))
    throw UsageError{std::string("unknown variant '") + name + "'; known: " + variant_names()};
}

// A decimal integer in [lo, hi], the whole argument and nothing else.
unsigned long long parse_uint(const char* what, const char* text, unsigned long long lo,
                              unsigned long long hi) {
  const std::string bad = std::string(what) + " must be an integer from " + std::to_string(lo) +
                          " to " + std::to_string(hi) + ", got '" + text + "'";
  if (!*text) throw UsageError{bad};
  for (const char* p = text; *p; ++p)
    if (*p < '0' || *p > '9') throw UsageError{bad};
  errno = 0;
  char* end = nullptr;
  const unsigned long long x = std::strtoull(text, &end, 10);
  if (errno == ERANGE || *end || x < lo || x > hi) throw UsageError{bad};
  return x;
}

int perft_cmd(int argc, char** argv) {
  if (argc < 4) throw UsageError{"perft needs VARIANT and DEPTH"};
  Variant v;
  Rules rules;
  parse_variant(argv[2], v, rules);
  // Beyond 20 plies no count fits in 64 bits, let alone in a lifetime.
  const int depth = static_cast<int>(parse_uint("DEPTH", argv[3], 0, 20));
  bool ordered = false;
  size_t table_mb = 0;
  int threads = 1;
  for (int i = 4; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--ordered")) {
      ordered = true;
    } else if (!std::strcmp(argv[i], "--table-mb")) {
      if (i + 1 >= argc) throw UsageError{"--table-mb needs a size in MB"};
      table_mb = parse_uint("--table-mb", argv[++i], 0, 1u << 20);
    } else if (!std::strcmp(argv[i], "--threads")) {
      if (i + 1 >= argc) throw UsageError{"--threads needs a number (0: all cores)"};
      threads = static_cast<int>(parse_uint("--threads", argv[++i], 0, 1024));
    } else if (!std::strcmp(argv[i], "--head")) {
      if (i + 1 >= argc) throw UsageError{"--head needs federation, classic or extended"};
      const std::string h = argv[++i];
      if (h == "federation") {
        rules.head_rule = HeadRule::Federation;
      } else if (h == "classic") {
        rules.head_rule = HeadRule::Classic;
      } else if (h == "extended") {
        rules.head_rule = HeadRule::Extended;
      } else {
        throw UsageError{"--head must be federation, classic or extended, got '" + h + "'"};
      }
    } else {
      throw UsageError{std::string("unknown perft option '") + argv[i] + "'"};
    }
  }
  std::unique_ptr<PerftTable> table;
  if (table_mb) table = std::make_unique<PerftTable>(table_mb << 20);
  const auto t0 = std::chrono::steady_clock::now();
  // A variant whose turns depend on the turn number counts from the start as turn 1, without
  // the table (the turn is not part of the position).
  Engine turns(v, rules);
  const uint64_t n = turns.has_sequences()
                         ? perft_turn_parallel(v, rules, opening(v), depth, ordered, 1, threads)
                         : perft_parallel(v, rules, opening(v), depth, ordered, threads, nullptr,
                                          table.get());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("perft %d = %llu  (%.3f s, %.0f leaves/s)\n", depth, (unsigned long long)n, s,
              n / (s > 0 ? s : 1e-9));
  return 0;
}

int bench_cmd(int argc, char** argv) {
  if (argc < 4 || argc > 5) throw UsageError{"bench needs VARIANT FILE [REPEAT]"};
  Variant v;
  Rules rules;
  parse_variant(argv[2], v, rules);
  const int repeat = argc > 4 ? static_cast<int>(parse_uint("REPEAT", argv[4], 1, 1000000)) : 1;
  std::ifstream in(argv[3]);
  if (!in) {
    std::fprintf(stderr, "nardy-core: cannot read %s: %s\n", argv[3], std::strerror(errno));
    return 1;
  }
  const VariantEntry& entry = variant_entry(v);
  std::vector<Position> positions;
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    for (char& c : line) if (c == '|') c = ' ';
    std::istringstream ss(line);
    SideArray us{}, them{};
    for (int& x : us) ss >> x;
    for (int& x : them) ss >> x;
    std::string rest;
    if (!ss || (ss >> rest)) {
      std::fprintf(stderr, "nardy-core: %s line %zu: not 26 counts, '|', 26 counts\n", argv[3],
                   line_no);
      return 1;
    }
    const std::string err = entry.validate(us, them);
    if (!err.empty()) {
      std::fprintf(stderr, "nardy-core: %s line %zu: bad position: %s\n", argv[3], line_no,
                   err.c_str());
      return 1;
    }
    positions.push_back(Position{entry.make_side(us), entry.make_side(them)});
  }
  if (in.bad()) {
    std::fprintf(stderr, "nardy-core: error reading %s\n", argv[3]);
    return 1;
  }
  if (positions.empty()) {
    std::fprintf(stderr, "nardy-core: %s holds no positions\n", argv[3]);
    return 1;
  }
  Engine e(v, rules);
  const EnumerationStats st = enumerate_all(e, positions, repeat);
  std::printf("%zu positions x 21 rolls x %d: %.0f enumerations/s, %.0f resulting positions/s\n",
              positions.size(), repeat, st.enumerations / st.seconds, st.results / st.seconds);
  return 0;
}

int rollout_cmd(int argc, char** argv) {
  if (argc < 4 || argc > 7) throw UsageError{"rollout needs VARIANT GAMES [POLICY] [SEED] [THREADS]"};
  Variant v;
  Rules rules;
  parse_variant(argv[2], v, rules);
  RolloutSettings st;
  st.trials = parse_uint("GAMES", argv[3], 1, 1ull << 40);
  if (argc > 4) {
    if (!std::strcmp(argv[4], "random")) {
      st.policy = RolloutPolicy::Random;
    } else if (!std::strcmp(argv[4], "greedy")) {
      st.policy = RolloutPolicy::Greedy;
    } else {
      throw UsageError{std::string("POLICY must be random or greedy, got '") + argv[4] + "'"};
    }
  }
  st.seed = argc > 5 ? parse_uint("SEED", argv[5], 0, ~0ull) : 1;
  st.threads = argc > 6 ? static_cast<int>(parse_uint("THREADS", argv[6], 0, 1024)) : 1;
  const auto t0 = std::chrono::steady_clock::now();
  const RolloutCounts c = rollout(v, rules, opening(v), st);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%llu games, %.1f plies/game, points %lld: %.0f games/s, %.0f plies/s\n",
              (unsigned long long)c.games, double(c.plies) / double(c.games ? c.games : 1),
              (long long)c.points, c.games / s, c.plies / s);
  return 0;
}

int variants_cmd(int argc, char**) {
  if (argc != 2) throw UsageError{"variants takes no arguments"};
  for (const VariantEntry& e : variants()) {
    std::printf("%s", e.key);
    for (const VariantName& n : e.names)
      std::printf("\t%.*s", static_cast<int>(n.name.size()), n.name.data());
    std::printf("\n");
  }
  return 0;
}

int selftest() {
  // Opening move counts per roll, published for GNU Backgammon, wildbg and OpenSpiel.
  struct Fact { int d1, d2; size_t moves; };
  const Fact facts[] = {{1, 1, 42}, {2, 2, 75}, {3, 3, 73}, {4, 4, 52}, {3, 1, 16}, {6, 6, 11}};
  Variant bg, ln;
  Rules bg_rules, classic;
  parse_variant("backgammon", bg, bg_rules);
  parse_variant("long-nardy-classic", ln, classic);
  Engine e(bg, bg_rules);
  MoveList list;
  int failures = 0;
  for (const Fact& f : facts) {
    e.generate(opening(bg), f.d1, f.d2, list);
    if (list.size() != f.moves) {
      std::printf("FAIL opening %d-%d: %zu moves, expected %zu\n", f.d1, f.d2, list.size(), f.moves);
      ++failures;
    }
  }
  const uint64_t p2 = e.perft(opening(bg), 2, false);
  if (p2 != 202782) { std::printf("FAIL backgammon perft 2 = %llu\n", (unsigned long long)p2); ++failures; }
  Engine l(ln, classic);
  const uint64_t l3 = l.perft(opening(ln), 3, false);
  if (l3 != 35387) { std::printf("FAIL long nardy classic perft 3 = %llu\n", (unsigned long long)l3); ++failures; }
  std::printf("%d passed, %d failed\n", 8 - failures, failures);
  return failures ? 1 : 0;
}

int run(int argc, char** argv) {
  if (argc < 2) throw UsageError{"no subcommand"};
  const std::string cmd = argv[1];
  if (cmd == "perft") return perft_cmd(argc, argv);
  if (cmd == "bench") return bench_cmd(argc, argv);
  if (cmd == "rollout") return rollout_cmd(argc, argv);
  if (cmd == "variants") return variants_cmd(argc, argv);
  if (cmd == "selftest") return selftest();
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::printf("%s", kUsage);
    return 0;
  }
  throw UsageError{"unknown subcommand '" + cmd + "'"};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "nardy-core: %s\n%s", e.message.c_str(), kUsage);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nardy-core: %s\n", e.what());
    return 1;
  }
}
