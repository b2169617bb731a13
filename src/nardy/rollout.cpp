#include "nardy/rollout.hpp"

#include <algorithm>
#include <bit>
#include <memory>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "nardy/registry.hpp"

namespace nardy {

int outcome_kinds(Variant v) noexcept {
  return static_cast<int>(variant_entry(v).kinds.size());
}

const char* outcome_kind_name(Variant v, int kind) noexcept {
  if (kind < 0 || kind >= outcome_kinds(v)) return "";
  return variant_entry(v).kinds[static_cast<size_t>(kind)];
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

int resolve_threads(int threads) noexcept {
  if (threads > 0) return threads;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw ? static_cast<int>(hw) : 1;
}

namespace {

// Runs `body(worker_index)` on `threads` threads (the calling thread is worker 0) and
// rethrows the first exception. Worker 0, done with its share, goes on running the cancel
// check while the others finish theirs, so Ctrl-C still reaches a call in its last tasks.
template <class F>
void run_workers(int threads, F&& body, Cancel* cancel = nullptr) {
  if (threads <= 1) {
    body(0);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(threads);
  std::atomic<int> running{threads - 1};
  pool.reserve(threads - 1);
  for (int t = 1; t < threads; ++t) {
    pool.emplace_back([&, t] {
      try {
        body(t);
      } catch (...) {
        errors[t] = std::current_exception();
      }
      running.fetch_sub(1);
    });
  }
  try {
    body(0);
    if (cancel && cancel->check) {
      while (running.load() > 0 && !cancel->requested()) {
        std::this_thread::sleep_for(CancelPoll::kCheckInterval);
        if (cancel->check(cancel->context)) {
          cancel->request();
          throw Cancelled{};
        }
      }
    }
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace

RolloutCounts rollout(Variant variant, const Rules& rules, const Position& start,
                      const RolloutSettings& s, Cancel* cancel) {
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
    CancelPoll poll(cancel, t == 0, 1);
    RolloutCounts& mine = partial[t];
    for (;;) {
      const uint64_t begin = next.fetch_add(chunk);
      if (begin >= s.trials) return;
      const uint64_t end = std::min(begin + chunk, s.trials);
      for (uint64_t i = begin; i < end; ++i) {
        poll();
        mine.add(engine.play_trial(list, start, s.policy, s.seed, s.first_trial + i,
                                   s.max_plies, s.quasi));
      }
    }
  }, cancel);
  RolloutCounts total;
  for (const auto& p : partial) total.merge(p);
  return total;
}

// -- lockstep --------------------------------------------------------------------------------

LockstepRollout::LockstepRollout(Variant variant, const Rules& rules, const Position& start,
                                 uint64_t seed, uint64_t first_trial, uint64_t trials,
                                 uint32_t max_plies, size_t width, uint32_t quasi,
                                 bool every_ply)
    : engine_(variant, rules),
      start_(start),
      seed_(seed),
      next_trial_(first_trial),
      end_trial_(first_trial + trials),
      max_plies_(max_plies),
      quasi_(quasi),
      every_ply_(every_ply),
      sequences_(engine_.has_sequences()),
      first_turn_(engine_.rollout_first_turn(start)) {
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
  g.luck = 0.0;
  g.carried = {};
  g.carried_play = false;
  return true;
}

void LockstepRollout::tally(const Game& g, const Outcome& out) {
  counts_.add(out);
  if (!every_ply_) return;
  const int64_t pts = out.winner == 0 ? out.points : out.winner == 1 ? -out.points : 0;
  finished_.push_back(Finished{g.trial, pts, g.luck});
}

bool LockstepRollout::over(Game& g) {
  Outcome out;
  if (engine_.game_end(g.pos, g.on_roll, g.passes, out)) {
    out.plies = g.ply;
    tally(g, out);
    return true;
  }
  if (g.ply == max_plies_) {
    out = Outcome{};
    out.plies = max_plies_;
    tally(g, out);
    return true;
  }
  return false;
}

bool LockstepRollout::run_until_decision(Game& g) {
  if (sequences_) return run_turns_until_decision(g);
  for (;; ++g.ply) {
    if (over(g)) return false;
    int d1, d2;
    trial_dice(g.key, seed_, g.trial, g.ply, quasi_, d1, d2);
    engine_.generate(g.pos, d1, d2, list_);
    g.d1 = d1;
    g.d2 = d2;
    if (list_.size() >= 2 || every_ply_) return true;  // list_ holds the candidates
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

// play_trial's game loop for turns of several rolls, each turn listed whole. A decision on
// the dice carried to the player on roll is made within the ply, before his roll, so the
// loop comes back to the same ply after it.
bool LockstepRollout::run_turns_until_decision(Game& g) {
  for (;; ++g.ply) {
    if (over(g)) return false;
    if (g.carried.left != 0) {
      const DiceCarry c = std::exchange(g.carried, DiceCarry{});
      engine_.generate_turn(g.pos, c.die, c.die, carried_turn(c.left), turns_);
      if (turns_.size() >= 2) {
        g.d1 = g.d2 = c.die;
        g.carried_play = true;
        return true;
      }
      if (turns_.size() == 1) {
        g.pos = turns_[0].result;
        if (over(g)) return false;
      }
    }
    int d1, d2;
    trial_dice(g.key, seed_, g.trial, g.ply, quasi_, d1, d2);
    g.d1 = d1;
    g.d2 = d2;
    g.turn = engine_.turn_at(first_turn_, static_cast<int>(g.ply));
    g.played = engine_.generate_turn(g.pos, d1, d2, g.turn, turns_);
    g.carried_play = false;
    if (turns_.size() >= 2 || every_ply_) return true;  // turns_ holds the candidates
    if (turns_.empty()) {
      g.pos = g.pos.swapped();
      ++g.passes;
      g.on_roll ^= 1;
      continue;
    }
    play_turn_move(g, turns_[0].result, turns_[0].again);
  }
}

void LockstepRollout::play_turn_move(Game& g, const Position& result, bool again) {
  g.passes = 0;
  if (again) {  // the same player rolls again (a ply of its own, as in play_trial)
    g.pos = result;
    return;
  }
  g.pos = result.swapped();
  g.carried = engine_.carry(g.d1, g.d2, g.turn, g.played);
  g.on_roll ^= 1;
}

size_t LockstepRollout::advance(Cancel* cancel) {
  cand_.clear();
  continues_.clear();
  offsets_.assign(1, 0);
  waiting_.clear();
  wait_trial_.clear();
  CancelPoll poll(cancel, true, 1);
  for (size_t gi = 0; gi < games_.size(); ++gi) {
    Game& g = games_[gi];
    while (g.live) {
      poll();
      if (run_until_decision(g)) {
        if (sequences_) {
          for (const TurnMove& m : turns_) {
            cand_.push_back(m.result);
            continues_.push_back(static_cast<uint8_t>(m.again || g.carried_play));
          }
        } else {
          for (size_t k = 0; k < list_.size(); ++k) cand_.push_back(list_[k].result);
          continues_.resize(cand_.size(), 0);
        }
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

std::vector<int8_t> LockstepRollout::waiting_movers() const {
  std::vector<int8_t> out(waiting_.size());
  for (size_t k = 0; k < waiting_.size(); ++k)
    out[k] = static_cast<int8_t>(games_[waiting_[k]].on_roll);
  return out;
}

std::vector<Position> LockstepRollout::waiting_positions() const {
  std::vector<Position> out(waiting_.size());
  for (size_t k = 0; k < waiting_.size(); ++k) out[k] = games_[waiting_[k]].pos;
  return out;
}

std::vector<int8_t> LockstepRollout::waiting_dice() const {
  std::vector<int8_t> out(2 * waiting_.size());
  for (size_t k = 0; k < waiting_.size(); ++k) {
    out[2 * k] = static_cast<int8_t>(games_[waiting_[k]].d1);
    out[2 * k + 1] = static_cast<int8_t>(games_[waiting_[k]].d2);
  }
  return out;
}

bool LockstepRollout::choose(const int64_t* choices, size_t n, const double* luck) {
  if (n != waiting_.size()) return false;
  for (size_t k = 0; k < n; ++k) {
    const int64_t count = std::max<int64_t>(offsets_[k + 1] - offsets_[k], 1);
    if (choices[k] < 0 || choices[k] >= count) return false;
  }
  for (size_t k = 0; k < n; ++k) {
    Game& g = games_[waiting_[k]];
    if (luck) g.luck += luck[k];
    if (offsets_[k + 1] == offsets_[k]) {  // every-ply mode: the roll has no move
      g.pos = g.pos.swapped();
      ++g.passes;
      g.on_roll ^= 1;
      ++g.ply;
      continue;
    }
    const size_t c = static_cast<size_t>(offsets_[k] + choices[k]);
    if (g.carried_play) {  // played before the roll: the same ply goes on (run_turns_...)
      g.pos = cand_[c];
      g.carried_play = false;
      continue;
    }
    if (sequences_) {
      play_turn_move(g, cand_[c], continues_[c] != 0);
    } else {
      g.pos = cand_[c].swapped();
      g.passes = 0;
      g.on_roll ^= 1;
    }
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

// One level: children of every task (at remaining depth >= 1), equal positions merged.
std::vector<PerftTask> expand(Engine& engine, const std::vector<PerftTask>& tasks, bool ordered,
                              CancelPoll& poll) {
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
    poll();
    if (engine.finished(t.pos)) continue;  // no children
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
                                   size_t min_tasks, int& levels, Cancel* cancel) {
  if (depth < 1) throw std::invalid_argument("perft_split needs depth >= 1");
  std::vector<PerftTask> tasks{PerftTask{pos, 1}};
  levels = 0;
  // Expanding is done serially here; keep at least two levels for the workers (depth - levels
  // >= 2) unless the tree is shallower, so that the split stays cheap next to the work.
  CancelPoll poll(cancel, true, 1);
  while (levels < depth && (levels == 0 || (tasks.size() < min_tasks && depth - levels > 2))) {
    tasks = expand(engine, tasks, ordered, poll);
    ++levels;
    if (tasks.empty()) break;
  }
  return tasks;
}

uint64_t perft_tasks(Variant variant, const Rules& rules, const std::vector<PerftTask>& tasks,
                     int depth, bool ordered, int threads, Cancel* cancel,
                     PerftTable* table) {
  if (depth < 0) throw std::invalid_argument("perft depth must be >= 0");
  if (table) table->bind(variant, rules, ordered);
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
    CancelPoll poll(cancel, t == 0, 1);  // per inner node: microseconds, in Shlem up to 100 ms
    uint64_t sum = 0;
    for (;;) {
      const size_t i = next.fetch_add(1);
      if (i >= tasks.size()) break;
      sum += tasks[i].weight * engine.perft(tasks[i].pos, depth, ordered, &poll, table);
    }
    partial[t] = sum;
  }, cancel);
  uint64_t total = 0;
  for (uint64_t p : partial) total += p;
  return total;
}

uint64_t perft_turn_parallel(Variant variant, const Rules& rules, const Position& pos, int depth,
                             bool ordered, int first_turn, int threads, Cancel* cancel) {
  if (depth < 0) throw std::invalid_argument("perft depth must be >= 0");
  threads = resolve_threads(threads);
  Engine engine(variant, rules);
  CancelPoll poll(cancel, true, 1);
  if (depth <= 1 || threads == 1 || engine.finished(pos))
    return engine.perft_turn(pos, depth, ordered, first_turn, &poll);
  // The root's ply, as perft_turn_rec walks it; its children are counted from ply 1.
  struct Task {
    Position pos;
    DiceCarry carried;
    uint64_t weight;
  };
  struct TaskKey {
    size_t operator()(const std::pair<Position, int>& k) const noexcept {
      return k.first.hash() ^ (static_cast<size_t>(k.second) * 0x9E3779B97F4A7C15ull);
    }
  };
  std::vector<Task> tasks;
  std::unordered_map<std::pair<Position, int>, size_t, TaskKey> index;
  auto add = [&](const Position& p, DiceCarry c, uint64_t w) {
    auto [it, fresh] = index.emplace(std::make_pair(p, c.die * 8 + c.left), tasks.size());
    if (fresh) {
      tasks.push_back(Task{p, c, w});
    } else {
      tasks[it->second].weight += w;
    }
  };
  const int turn = engine.turn_at(first_turn, 0);
  TurnList list;
  for (const Roll& r : rolls(ordered)) {
    poll();
    engine.generate_turn(pos, r.d1, r.d2, turn, list);
    if (list.empty()) {
      add(pos.swapped(), DiceCarry{}, static_cast<uint64_t>(r.weight));
      continue;
    }
    const DiceCarry left = engine.carry(r.d1, r.d2, turn, list.dice_played());
    for (const TurnMove& m : list)
      add(m.again ? m.result : m.result.swapped(), left, static_cast<uint64_t>(r.weight));
  }
  const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(threads), tasks.size()));
  std::atomic<size_t> next{0};
  std::vector<uint64_t> partial(static_cast<size_t>(n), 0);
  run_workers(n, [&](int t) {
    Engine local(variant, rules);
    CancelPoll inner(cancel, t == 0, 1);
    uint64_t sum = 0;
    for (;;) {
      const size_t i = next.fetch_add(1);
      if (i >= tasks.size()) break;
      sum += tasks[i].weight * local.perft_turn(tasks[i].pos, depth - 1, ordered, first_turn,
                                                &inner, tasks[i].carried, 1);
    }
    partial[static_cast<size_t>(t)] = sum;
  }, cancel);
  uint64_t total = 0;
  for (uint64_t p : partial) total += p;
  return total;
}

uint64_t perft_parallel(Variant variant, const Rules& rules, const Position& pos, int depth,
                        bool ordered, int threads, Cancel* cancel, PerftTable* table) {
  if (depth < 0) throw std::invalid_argument("perft depth must be >= 0");
  threads = resolve_threads(threads);
  Engine engine(variant, rules);
  if (depth <= 1 || threads == 1) {
    CancelPoll poll(cancel, true, 1);
    return engine.perft(pos, depth, ordered, &poll, table);
  }
  int levels = 0;
  const std::vector<PerftTask> tasks = perft_split(
      engine, pos, depth, ordered, static_cast<size_t>(threads) * 64, levels, cancel);
  return perft_tasks(variant, rules, tasks, depth - levels, ordered, threads, cancel, table);
}

}  // namespace nardy
