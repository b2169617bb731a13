#include "nardy/vector_env.hpp"

#include <barrier>
#include <exception>
#include <stdexcept>
#include <thread>

#include "nardy/enumerator.hpp"
#include "nardy/movelist.hpp"
#include "nardy/registry.hpp"
#include "nardy/steps.hpp"

namespace nardy {

// One thread's share of the games, with its own engine and candidate lists. The candidates of
// the observation being answered are read while the next ones are written, so there are two.
struct VectorEnv::Chunk {
  Engine engine;
  size_t begin, end;
  MoveList list;
  TurnList turn_list;  // variants whose turn is several rolls (Engine::has_sequences)
  std::vector<Position> cand, next;
  std::vector<uint8_t> cand_again, next_again;  // the same player rolls again after it
  std::vector<uint32_t> local, next_local;  // CSR into cand / next, one entry a game + 1
  int64_t base = 0;                         // the chunk's first row in the observation
  std::vector<std::unique_ptr<StepTurn>> turns;  // step mode: one turn in progress a game
  std::vector<int32_t> legal;         // step mode: the games' legal actions, one after another
  std::vector<uint32_t> legal_local;  // CSR into legal, one entry a game + 1
  int64_t legal_base = 0;             // the chunk's first entry in the env's list
  Chunk(Variant v, const Rules& r, size_t b, size_t e, bool steps)
      : engine(v, r), begin(b), end(e) {
    local.assign(e - b + 1, 0);
    if (steps)
      for (size_t i = b; i < e; ++i) turns.push_back(engine.step_turn());
  }
};

VectorEnv::VectorEnv(Variant variant, const Rules& rules, size_t n, int threads,
                     uint32_t max_plies, VectorObservation obs)
    : variant_(variant), rules_(rules), max_plies_(max_plies), obs_(obs) {
  if (n == 0) throw std::invalid_argument("a VectorEnv needs at least one game");
  if (max_plies == 0) throw std::invalid_argument("max_plies must be at least 1");
  const VariantEntry& e = variant_entry(variant);
  sequences_ = Engine(variant, rules).has_sequences();
  start_ = Position{e.make_side(e.start), e.make_side(e.start)};
  const size_t t = std::clamp<size_t>(threads > 0 ? static_cast<size_t>(threads) : 1, 1, n);
  for (size_t k = 0; k < t; ++k)
    chunks_.push_back(
        std::make_unique<Chunk>(variant, rules, n * k / t, n * (k + 1) / t, obs.steps));
  if (obs.steps) {
    actions_ = chunks_[0]->turns[0]->space().size();
    masks_.assign(n * static_cast<size_t>(actions_), 0);
    played_.assign(n, 0);
    legal_offsets_.assign(n + 1, 0);
  }
  games_.resize(n);
  offsets_.assign(n + 1, 0);
  boards_.assign(n * kRowBytes, 0);
  dice_.assign(n * 2, 0);
  to_play_.assign(n, 0);
  episodes_.assign(n, 0);
  plies_.assign(n, 0);
}

VectorEnv::~VectorEnv() = default;

void VectorEnv::start_episode(Game& g, size_t i, uint32_t episode) {
  g.pos = start_;
  g.key = game_key(seed_, i, episode);
  g.episode = episode;
  g.ply = 0;
  g.on_roll = 0;
  g.passes = 0;
  g.carried = {};
  g.carried_play = false;
}

void VectorEnv::to_decision(Chunk& c, size_t i, int mover, float* reward, uint8_t* terminated,
                            uint8_t* truncated) {
  Game& g = games_[i];
  Outcome out;
  // Episodes that end before their first decision cannot happen in the variants' rules from
  // the start position, but a bound keeps a mistake from hanging the caller.
  int empty_episodes = 0;
  bool decided = mover >= 0;
  for (;;) {
    bool over = false;
    if (c.engine.game_end(g.pos, g.on_roll, g.passes, out)) {
      over = true;
      if (mover >= 0) {
        const float pts = static_cast<float>(out.points);
        *reward = out.winner == mover ? pts : out.winner == 1 - mover ? -pts : 0.0f;
        *terminated = 1;
      }
    } else if (g.ply >= max_plies_) {
      over = true;
      if (mover >= 0) *truncated = 1;
    }
    if (over) {
      if (!decided && ++empty_episodes > 1000)
        throw std::runtime_error("VectorEnv: games end before any decision");
      mover = -1;
      decided = false;
      start_episode(g, i, g.episode + 1);
      continue;
    }
    // the mover's turn number where a turn can be several rolls (the rollouts' count: the
    // start position is turn 1 of the first roller, passes are turns); dice a stopped cascade
    // left him come first, before his roll
    g.carried_play = g.carried.left != 0;
    if (g.carried_play) {
      g.d1 = g.d2 = g.carried.die;
      g.turn = carried_turn(g.carried.left);
      g.carried = {};
    } else {
      dice_from_word(stream_draw(g.key, 2 * uint64_t{g.ply}), g.d1, g.d2);
      g.turn = sequences_ ? c.engine.turn_at(1, static_cast<int>(g.ply)) : 0;
    }
    const int turn_number = g.turn;
    size_t m = 0;
    if (obs_.steps) {
      StepTurn& turn = *c.turns[i - c.begin];
      turn.begin(g.pos, g.d1, g.d2, turn_number);
      if (turn.length() > 0) {
        turn.mask_and_list(masks_.data() + i * static_cast<size_t>(actions_), c.legal);
        return;
      }
    } else if (sequences_) {
      // a turn of several rolls is listed whole
      c.engine.generate_turn(g.pos, g.d1, g.d2, turn_number, c.turn_list);
      m = c.turn_list.size();
      for (size_t k = 0; k < m; ++k) {
        c.next.push_back(c.turn_list[k].result);
        c.next_again.push_back(c.turn_list[k].again || g.carried_play);
      }
      g.played = c.turn_list.dice_played();
    } else {
      c.engine.generate(g.pos, g.d1, g.d2, c.list);
      m = c.list.size();
      for (size_t k = 0; k < m; ++k) c.next.push_back(c.list[k].result);
      c.next_again.resize(c.next.size(), 0);
    }
    if (m == 0 && g.carried_play) continue;  // he cannot play them either: they are lost
    if (m == 0) {  // the turn passes
      g.pos = g.pos.swapped();
      ++g.passes;
      g.on_roll ^= 1;
      ++g.ply;
      continue;
    }
    return;
  }
}

template <class Phase1>
void VectorEnv::run(Phase1&& phase1) {
  std::exception_ptr failed;
  // Once every chunk has its candidates: the offsets, and room for the rows.
  auto lay_out = [&]() noexcept {
    int64_t base = 0;
    for (auto& c : chunks_) {
      c->base = base;
      for (size_t k = 0; k + 1 < c->next_local.size(); ++k)
        offsets_[c->begin + k] = base + c->next_local[k];
      base += c->next_local.back();
    }
    offsets_.back() = base;
    int64_t legal = 0;
    if (obs_.steps) {
      for (auto& c : chunks_) {
        c->legal_base = legal;
        for (size_t k = 0; k + 1 < c->legal_local.size(); ++k)
          legal_offsets_[c->begin + k] = legal + c->legal_local[k];
        legal += c->legal_local.back();
      }
      legal_offsets_.back() = legal;
    }
    try {
      if (obs_.steps) legal_.ensure(static_cast<size_t>(legal));
      const size_t m = static_cast<size_t>(base);
      if (obs_.boards) rows_.ensure(m * kRowBytes);
      again_.ensure(m);
      const size_t rows = obs_.steps ? games_.size() : m;
      if (obs_.features) feats_.ensure(rows * static_cast<size_t>(encoding_width(obs_.encoding)));
    } catch (...) {
      failed = std::current_exception();
    }
  };
  auto first = [&](Chunk& c) {
    c.next.clear();
    c.next_again.clear();
    c.next_local.assign(1, 0);
    c.legal.clear();
    c.legal_local.assign(1, 0);
    phase1(c);
  };
  auto second = [&](Chunk& c) {
    if (!failed) write_chunk(c);
    std::swap(c.cand, c.next);
    std::swap(c.cand_again, c.next_again);
    std::swap(c.local, c.next_local);
  };
  const size_t t = chunks_.size();
  if (t == 1) {
    first(*chunks_[0]);
    lay_out();
    second(*chunks_[0]);
  } else {
    std::barrier sync(static_cast<std::ptrdiff_t>(t), lay_out);
    std::vector<std::exception_ptr> errors(t);
    auto body = [&](size_t k) {
      try {
        first(*chunks_[k]);
      } catch (...) {
        errors[k] = std::current_exception();
      }
      sync.arrive_and_wait();
      if (!errors[k]) second(*chunks_[k]);
    };
    std::vector<std::thread> pool;
    pool.reserve(t - 1);
    for (size_t k = 1; k < t; ++k) pool.emplace_back(body, k);
    body(0);
    for (auto& th : pool) th.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
  }
  if (failed) std::rethrow_exception(failed);
}

void VectorEnv::write_chunk(Chunk& c) {
  const SpareBits spare = variant_entry(variant_).spare;
  const size_t width = obs_.features ? static_cast<size_t>(encoding_width(obs_.encoding)) : 0;
  int8_t row[kRowBytes];
  for (size_t k = 0; k < c.next.size(); ++k) {
    const size_t at = static_cast<size_t>(c.base) + k;
    int8_t* dst = obs_.boards ? rows_.data.get() + at * kRowBytes : row;
    unpack_row(c.next[k], dst, spare);
    const bool again = c.next_again[k] != 0;
    again_.data[at] = again;
    // the player to roll next is on roll: the opponent, or the mover when it rolls again
    if (obs_.features)
      encode_row(obs_.encoding, dst, again ? 0 : 1, feats_.data.get() + at * width);
  }
  if (obs_.steps && !c.legal.empty())
    std::copy(c.legal.begin(), c.legal.end(), legal_.data.get() + c.legal_base);
  for (size_t i = c.begin; i < c.end; ++i) {
    const Game& g = games_[i];
    int8_t* board = boards_.data() + i * kRowBytes;
    if (obs_.steps) {
      const StepTurn& turn = *c.turns[i - c.begin];
      unpack_row(turn.position(), board, spare);
      played_[i] = static_cast<uint8_t>(turn.played());
      if (obs_.features) encode_row(obs_.encoding, board, 0, feats_.data.get() + i * width);
    } else {
      unpack_row(g.pos, board, spare);
    }
    dice_[2 * i] = static_cast<int8_t>(g.d1);
    dice_[2 * i + 1] = static_cast<int8_t>(g.d2);
    to_play_[i] = static_cast<int8_t>(g.on_roll);
    episodes_[i] = g.episode;
    plies_[i] = g.ply;
  }
}

void VectorEnv::reset(uint64_t seed) {
  seed_ = seed;
  run([&](Chunk& c) {
    for (size_t i = c.begin; i < c.end; ++i) {
      start_episode(games_[i], i, 0);
      to_decision(c, i, -1, nullptr, nullptr, nullptr);
      c.next_local.push_back(static_cast<uint32_t>(c.next.size()));
      c.legal_local.push_back(static_cast<uint32_t>(c.legal.size()));
    }
  });
}

long VectorEnv::step(const int64_t* actions, float* rewards, uint8_t* terminated,
                     uint8_t* truncated) {
  const size_t n = games_.size();
  if (obs_.steps) {
    const size_t a = static_cast<size_t>(actions_);
    for (size_t i = 0; i < n; ++i)
      if (actions[i] < 0 || actions[i] >= actions_ ||
          !masks_[i * a + static_cast<size_t>(actions[i])])
        return static_cast<long>(i);
    run([&](Chunk& c) {
      for (size_t i = c.begin; i < c.end; ++i) {
        Game& g = games_[i];
        StepTurn& turn = *c.turns[i - c.begin];
        rewards[i] = 0.0f;
        terminated[i] = 0;
        truncated[i] = 0;
        if (!turn.play(static_cast<int>(actions[i])))
          throw std::logic_error("VectorEnv: a masked step was refused");
        if (!turn.done()) {
          turn.mask_and_list(masks_.data() + i * a, c.legal);
        } else {
          const int mover = g.on_roll;
          g.passes = 0;
          if (g.carried_play) {  // the same player now rolls his own turn
            g.pos = turn.position();
          } else if (turn.again()) {  // the same player rolls again
            g.pos = turn.position();
            ++g.ply;
          } else {
            g.pos = turn.position().swapped();
            g.on_roll ^= 1;
            g.carried = c.engine.carry(g.d1, g.d2, g.turn, turn.played());
            ++g.ply;
          }
          to_decision(c, i, mover, rewards + i, terminated + i, truncated + i);
        }
        c.next_local.push_back(0);
        c.legal_local.push_back(static_cast<uint32_t>(c.legal.size()));
      }
    });
    return -1;
  }
  for (size_t i = 0; i < n; ++i)
    if (actions[i] < 0 || actions[i] >= offsets_[i + 1] - offsets_[i]) return static_cast<long>(i);
  run([&](Chunk& c) {
    for (size_t i = c.begin; i < c.end; ++i) {
      Game& g = games_[i];
      const int mover = g.on_roll;
      const size_t at = c.local[i - c.begin] + static_cast<size_t>(actions[i]);
      g.passes = 0;
      if (g.carried_play) {  // the same player now rolls his own turn
        g.pos = c.cand[at];
      } else if (c.cand_again[at]) {  // the same player rolls again
        g.pos = c.cand[at];
        ++g.ply;
      } else {
        g.pos = c.cand[at].swapped();
        g.on_roll ^= 1;
        if (sequences_) g.carried = c.engine.carry(g.d1, g.d2, g.turn, g.played);
        ++g.ply;
      }
      rewards[i] = 0.0f;
      terminated[i] = 0;
      truncated[i] = 0;
      to_decision(c, i, mover, rewards + i, terminated + i, truncated + i);
      c.next_local.push_back(static_cast<uint32_t>(c.next.size()));
    }
  });
  return -1;
}

}  // namespace nardy
