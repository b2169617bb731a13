#include "nardy/rollout.hpp"

#include <algorithm>
#include <bit>
#include <memory>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace nardy {

namespace {

constexpr const char* kBackgammonKinds[] = {"single", "gammon", "backgammon"};
constexpr const char* kLongNardyKinds[] = {"oin", "mars"};
constexpr const char* kShlemKinds[] = {"blockade", "closed_points"};

// Longest run of set bits in a 24-bit mask.
int longest_run(uint32_t m) noexcept {
  int n = 0;
  while (m) {
    m &= m >> 1;
    ++n;
  }
  return n;
}

// Pips of a side (slots 0..24, slot s weighing s + 1), by table: byte b of word w holds slots
// 16 w + 2 b and 16 w + 2 b + 1.
struct PipTable {
  uint16_t t[13][256];
  constexpr PipTable() : t{} {
    for (int byte = 0; byte < 13; ++byte)
      for (int v = 0; v < 256; ++v) {
        const int s0 = (byte < 8 ? 2 * byte : 16 + 2 * (byte - 8));
        const int w0 = s0 <= kBar ? s0 + 1 : 0, w1 = s0 + 1 <= kBar ? s0 + 2 : 0;
        t[byte][v] = static_cast<uint16_t>((v & 0xF) * w0 + (v >> 4) * w1);
      }
  }
};
constexpr PipTable kPips{};

inline int fast_pips(const Side& s) noexcept {
  int n = 0;
  for (int b = 0; b < 8; ++b) n += kPips.t[b][(s.w[0] >> (8 * b)) & 0xFF];
  for (int b = 0; b < 5; ++b) n += kPips.t[8 + b][(s.w[1] >> (8 * b)) & 0xFF];
  return n;
}

bool bear_off_end(Variant v, const Position& pos, int on_roll, Outcome& out) noexcept {
  const Side* loser;
  if (pos.them.off() == kCheckers) {
    out.winner = 1 - on_roll;
    loser = &pos.us;
  } else if (pos.us.off() == kCheckers) {
    out.winner = on_roll;
    loser = &pos.them;
  } else {
    return false;
  }
  if (loser->off() > 0) {
    out.kind = 0;
    out.points = 1;
  } else if (v == Variant::Backgammon && (loser->bar() > 0 || (loser->occ1() >> 18) != 0)) {
    out.kind = 2;
    out.points = 3;
  } else {
    out.kind = 1;
    out.points = 2;
  }
  return true;
}

}  // namespace

int outcome_kinds(Variant v) noexcept { return v == Variant::Backgammon ? 3 : 2; }

const char* outcome_kind_name(Variant v, int kind) noexcept {
  if (kind < 0 || kind >= outcome_kinds(v)) return "";
  switch (v) {
    case Variant::Backgammon:
      return kBackgammonKinds[kind];
    case Variant::LongNardy:
      return kLongNardyKinds[kind];
    case Variant::Shlem:
      return kShlemKinds[kind];
  }
  return "";
}

void RolloutCounts::add(const Outcome& o) noexcept {
  ++games;
  plies += o.plies;
  if (o.winner == -2) {
    ++unfinished;
    return;
  }
  if (o.winner == -1) {
    ++draws;
    return;
  }
  ++wins[o.winner][o.kind];
  const int64_t signed_points = o.winner == 0 ? o.points : -o.points;
  points += signed_points;
  points_sq += static_cast<uint64_t>(o.points) * static_cast<uint64_t>(o.points);
}

void RolloutCounts::merge(const RolloutCounts& o) noexcept {
  games += o.games;
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < kMaxKinds; ++k) wins[s][k] += o.wins[s][k];
  draws += o.draws;
  unfinished += o.unfinished;
  points += o.points;
  points_sq += o.points_sq;
  plies += o.plies;
}

bool game_end(Variant v, const Rules& rules, const Position& pos, int on_roll, int passes,
              Outcome& out) noexcept {
  if (v != Variant::Shlem) return bear_off_end(v, pos, on_roll, out);
  const shlem::Status st = shlem::status(pos, rules, passes);
  if (st.over) {
    if (st.winner == 0) {
      out.winner = -1;
      out.kind = 0;
      out.points = 0;
      return true;
    }
    out.winner = st.winner > 0 ? on_roll : 1 - on_roll;
    out.kind = st.reason == shlem::EndReason::Blockade ? 0 : 1;
    out.points = st.value;
    return true;
  }
  if (st.claimable) {  // claim mode: every policy claims its blockade at the first chance
    out.winner = on_roll;
    out.kind = 0;
    out.points = st.us_blockade * st.us_blockade;
    return true;
  }
  return false;
}

int greedy_score(Variant v, const Position& after) noexcept {
  const Side& us = after.us;
  const Side& them = after.them;
  switch (v) {
    case Variant::Backgammon: {
      int score = fast_pips(them) - fast_pips(us) + 2 * us.off();
      const uint32_t ours1 = us.occ1(), ours2 = us.occ2();
      score += 3 * std::popcount(ours2 & 0xFFu);
      // Opponent checkers in our coordinates: their index j is our 23 - j; they move towards
      // our higher indices, so a checker on our index k threatens blots above k.
      const uint32_t theirs = reverse24(them.occ1());
      uint32_t blots = ours1 & ~ours2;
      int exposed = 0;
      while (blots) {
        const int i = std::countr_zero(blots);
        blots &= blots - 1;
        const int lo = i > 12 ? i - 12 : 0;
        const uint32_t behind = theirs & ((1u << i) - 1) & ~((1u << lo) - 1);
        if (behind || (them.bar() > 0 && i <= 11)) ++exposed;
      }
      return score - 8 * exposed;
    }
    case Variant::LongNardy: {
      const uint32_t ours = us.occ1();
      const int run = std::min(longest_run(ours), 6);
      return -4 * fast_pips(us) + 3 * std::popcount(ours) + 4 * run + 8 * us.off() -
             2 * us.count(23);
    }
    case Variant::Shlem: {
      const uint32_t their_pris = shlem::prisoners(them);
      const uint32_t our_pris = shlem::prisoners(us);
      const uint32_t on_their_territory_mask = us.occ1() & shlem::kTheirLine;
      int on_their_territory = 0;
      for (uint32_t m = on_their_territory_mask; m; m &= m - 1) on_their_territory += us.count(std::countr_zero(m));
      return 64 * shlem::longest_blockade(us) + 6 * shlem::closed_on_their_territory(us) +
             4 * (std::popcount(their_pris) + them.count(shlem::kHitOut)) -
             4 * std::popcount(our_pris) + on_their_territory;
    }
  }
  return 0;
}

size_t choose_greedy(Variant v, const MoveList& list) noexcept {
  const size_t n = list.size();
  if (n <= 1) return 0;
  size_t best = 0;
  int best_score = greedy_score(v, list[0].result);
  for (size_t i = 1; i < n; ++i) {
    const int s = greedy_score(v, list[i].result);
    if (s > best_score) {
      best_score = s;
      best = i;
    }
  }
  return best;
}

Outcome play_trial(Engine& engine, MoveList& list, const Position& start, RolloutPolicy policy,
                   uint64_t seed, uint64_t trial, uint32_t max_plies) {
  const Variant v = engine.variant();
  const Rules& rules = engine.rules();
  const uint64_t key = trial_key(seed, trial);
  Position pos = start;
  int on_roll = 0, passes = 0;
  Outcome out;
  for (uint32_t ply = 0;; ++ply) {
    if (game_end(v, rules, pos, on_roll, passes, out)) {
      out.plies = ply;
      return out;
    }
    if (ply == max_plies) break;
    int d1, d2;
    dice_from_word(stream_draw(key, 2 * uint64_t{ply}), d1, d2);
    bool moved;
    if (policy == RolloutPolicy::Random) {
      // Only the chosen move is made (Engine::pick): the same move as list[uniform(word, n)].
      const uint64_t word = stream_draw(key, 2 * uint64_t{ply} + 1);
      Position next;
      moved = engine.pick(
          pos, d1, d2,
          [word](size_t n) { return uniform_from_word(word, static_cast<uint32_t>(n)); }, next);
      if (moved) pos = next.swapped();
    } else {
      engine.generate(pos, d1, d2, list);
      moved = !list.empty();
      if (moved) pos = list[choose_greedy(v, list)].result.swapped();
    }
    if (moved) {
      passes = 0;
    } else {
      pos = pos.swapped();
      ++passes;
    }
    on_roll ^= 1;
  }
  out = Outcome{};
  out.winner = -2;
  out.plies = max_plies;
  return out;
}

int resolve_threads(int threads) noexcept {
  if (threads > 0) return threads;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw ? static_cast<int>(hw) : 1;
}

namespace {

// Runs `body(worker_index)` on `threads` threads (the calling thread is worker 0) and
// rethrows the first exception.
template <class F>
void run_workers(int threads, F&& body) {
  if (threads <= 1) {
    body(0);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(threads);
  pool.reserve(threads - 1);
  for (int t = 1; t < threads; ++t) {
    pool.emplace_back([&, t] {
      try {
        body(t);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  }
  try {
    body(0);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace

RolloutCounts rollout(Variant variant, const Rules& rules, const Position& start,
                      const RolloutSettings& s, const std::atomic<bool>* stop) {
  const int threads = static_cast<int>(
      std::min<uint64_t>(static_cast<uint64_t>(resolve_threads(s.threads)),
                         std::max<uint64_t>(s.trials, 1)));
  // Chunks handed out dynamically: which thread plays a trial does not change its result.
  const uint64_t chunk = std::clamp<uint64_t>(s.trials / (static_cast<uint64_t>(threads) * 16),
                                              1, 256);
  std::atomic<uint64_t> next{0};
  std::vector<RolloutCounts> partial(threads);
  run_workers(threads, [&](int t) {
    Engine engine(variant, rules);
    MoveList list;
    RolloutCounts& mine = partial[t];
    for (;;) {
      if (stop && stop->load(std::memory_order_relaxed)) return;
      const uint64_t begin = next.fetch_add(chunk);
      if (begin >= s.trials) return;
      const uint64_t end = std::min(begin + chunk, s.trials);
      for (uint64_t i = begin; i < end; ++i)
        mine.add(play_trial(engine, list, start, s.policy, s.seed, s.first_trial + i,
                            s.max_plies));
    }
  });
  RolloutCounts total;
  for (const auto& p : partial) total.merge(p);
  return total;
}

// -- lockstep --------------------------------------------------------------------------------

LockstepRollout::LockstepRollout(Variant variant, const Rules& rules, const Position& start,
                                 uint64_t seed, uint64_t first_trial, uint64_t trials,
                                 uint32_t max_plies, size_t width)
    : engine_(variant, rules),
      start_(start),
      seed_(seed),
      next_trial_(first_trial),
      end_trial_(first_trial + trials),
      max_plies_(max_plies) {
  if (width == 0) width = 1;
  games_.resize(static_cast<size_t>(std::min<uint64_t>(width, std::max<uint64_t>(trials, 1))));
  for (Game& g : games_) start_next(g);
}

bool LockstepRollout::start_next(Game& g) {
  if (next_trial_ == end_trial_) {
    if (g.live) --active_;
    g.live = false;
    return false;
  }
  if (!g.live) ++active_;
  g.live = true;
  g.trial = next_trial_++;
  g.key = trial_key(seed_, g.trial);
  g.pos = start_;
  g.ply = 0;
  g.on_roll = 0;
  g.passes = 0;
  return true;
}

bool LockstepRollout::run_until_decision(Game& g) {
  const Variant v = engine_.variant();
  Outcome out;
  for (;; ++g.ply) {
    if (game_end(v, engine_.rules(), g.pos, g.on_roll, g.passes, out)) {
      out.plies = g.ply;
      counts_.add(out);
      return false;
    }
    if (g.ply == max_plies_) {
      out = Outcome{};
      out.plies = max_plies_;
      counts_.add(out);
      return false;
    }
    int d1, d2;
    dice_from_word(stream_draw(g.key, 2 * uint64_t{g.ply}), d1, d2);
    engine_.generate(g.pos, d1, d2, list_);
    if (list_.size() >= 2) return true;  // list_ holds the candidates; ply not yet played
    if (list_.empty()) {
      g.pos = g.pos.swapped();
      ++g.passes;
    } else {
      g.pos = list_[0].result.swapped();
      g.passes = 0;
    }
    g.on_roll ^= 1;
  }
}

size_t LockstepRollout::advance() {
  cand_.clear();
  offsets_.assign(1, 0);
  waiting_.clear();
  wait_trial_.clear();
  for (size_t gi = 0; gi < games_.size(); ++gi) {
    Game& g = games_[gi];
    while (g.live) {
      if (run_until_decision(g)) {
        for (size_t k = 0; k < list_.size(); ++k) cand_.push_back(list_[k].result);
        offsets_.push_back(static_cast<int64_t>(cand_.size()));
        waiting_.push_back(gi);
        wait_trial_.push_back(g.trial);
        break;
      }
      start_next(g);
    }
  }
  return waiting_.size();
}

bool LockstepRollout::choose(const int64_t* choices, size_t n) {
  if (n != waiting_.size()) return false;
  for (size_t k = 0; k < n; ++k) {
    const int64_t count = offsets_[k + 1] - offsets_[k];
    if (choices[k] < 0 || choices[k] >= count) return false;
  }
  for (size_t k = 0; k < n; ++k) {
    Game& g = games_[waiting_[k]];
    g.pos = cand_[static_cast<size_t>(offsets_[k] + choices[k])].swapped();
    g.passes = 0;
    g.on_roll ^= 1;
    ++g.ply;
  }
  waiting_.clear();
  wait_trial_.clear();
  return true;
}

// -- perft -----------------------------------------------------------------------------------

namespace {

struct PositionHash {
  size_t operator()(const Position& p) const noexcept { return p.hash(); }
};

bool finished(Variant v, const Rules& rules, const Position& pos) noexcept {
  if (v == Variant::Shlem) return shlem::status(pos, rules).over;
  return game_over(pos);
}

// One level: children of every task (at remaining depth >= 1), equal positions merged.
std::vector<PerftTask> expand(Engine& engine, const std::vector<PerftTask>& tasks, bool ordered) {
  std::vector<PerftTask> out;
  std::unordered_map<Position, size_t, PositionHash> index;
  MoveList list;
  auto add = [&](const Position& p, uint64_t w) {
    auto [it, fresh] = index.emplace(p, out.size());
    if (fresh) {
      out.push_back(PerftTask{p, w});
    } else {
      out[it->second].weight += w;
    }
  };
  for (const PerftTask& t : tasks) {
    if (finished(engine.variant(), engine.rules(), t.pos)) continue;  // no children
    for (const Roll& r : rolls(ordered)) {
      engine.generate(t.pos, r.d1, r.d2, list);
      const uint64_t w = t.weight * static_cast<uint64_t>(r.weight);
      if (list.empty()) {
        add(t.pos.swapped(), w);
      } else {
        for (size_t i = 0; i < list.size(); ++i) add(list[i].result.swapped(), w);
      }
    }
  }
  return out;
}

}  // namespace

std::vector<PerftTask> perft_split(Engine& engine, const Position& pos, int depth, bool ordered,
                                   size_t min_tasks, int& levels) {
  if (depth < 1) throw std::invalid_argument("perft_split needs depth >= 1");
  std::vector<PerftTask> tasks{PerftTask{pos, 1}};
  levels = 0;
  // Expanding is done serially here; keep at least two levels for the workers (depth - levels
  // >= 2) unless the tree is shallower, so that the split stays cheap next to the work.
  while (levels < depth && (levels == 0 || (tasks.size() < min_tasks && depth - levels > 2))) {
    tasks = expand(engine, tasks, ordered);
    ++levels;
    if (tasks.empty()) break;
  }
  return tasks;
}

uint64_t perft_tasks(Variant variant, const Rules& rules, const std::vector<PerftTask>& tasks,
                     int depth, bool ordered, int threads, const std::atomic<bool>* stop) {
  if (depth < 0) throw std::invalid_argument("perft depth must be >= 0");
  if (depth == 0) {
    uint64_t total = 0;
    for (const PerftTask& t : tasks) total += t.weight;
    return total;
  }
  threads = static_cast<int>(std::min<size_t>(static_cast<size_t>(resolve_threads(threads)),
                                              std::max<size_t>(tasks.size(), 1)));
  std::atomic<size_t> next{0};
  std::vector<uint64_t> partial(threads, 0);
  run_workers(threads, [&](int t) {
    Engine engine(variant, rules);
    uint64_t sum = 0;
    for (;;) {
      if (stop && stop->load(std::memory_order_relaxed)) break;
      const size_t i = next.fetch_add(1);
      if (i >= tasks.size()) break;
      sum += tasks[i].weight * engine.perft(tasks[i].pos, depth, ordered);
    }
    partial[t] = sum;
  });
  uint64_t total = 0;
  for (uint64_t p : partial) total += p;
  return total;
}

uint64_t perft_parallel(Variant variant, const Rules& rules, const Position& pos, int depth,
                        bool ordered, int threads) {
  if (depth < 0) throw std::invalid_argument("perft depth must be >= 0");
  threads = resolve_threads(threads);
  Engine engine(variant, rules);
  if (depth <= 1 || threads == 1) return engine.perft(pos, depth, ordered);
  int levels = 0;
  const std::vector<PerftTask> tasks =
      perft_split(engine, pos, depth, ordered, static_cast<size_t>(threads) * 64, levels);
  return perft_tasks(variant, rules, tasks, depth - levels, ordered, threads);
}

}  // namespace nardy
